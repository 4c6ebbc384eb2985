import { type ReleaseEvent, releaseCatalogue, releaseStream } from "../../streams/release.js";
import type { ReleaseJob } from "../../streams/release-state.js";
import { type HandleResult, handleCommand, loadStream } from "../commands/handle.js";
import { type ReleaseCommand, releaseDecider } from "../commands/releases/decide.js";
import type { Sql } from "../db/database.js";
import { type EventStore, type Position, positionFromString } from "../event-store/port.js";
import type { Logger } from "../http/logging.js";
import { ReactorLoop } from "../projections/reactor.js";
import { releaseStreams, streamCount } from "./artifact.js";
import { findSealedArtifact, type SealedArtifact } from "./artifact-store.js";
import { generateInThread } from "./generation.js";

/**
 * Generates requested releases: a reactor on the log, as the batch validator is. Its work
 * list is the jobs the `releases` read model shows queued or generating; each job's stream
 * says where it is. One process at a time works on a job (an advisory lock). A generation
 * always starts from the first byte (the bytes are a function of the position, so a
 * restarted one writes what the first wrote, and the chunk store checks that it does); it
 * is published once (docs/releases.md, "Jobs").
 */

const SYSTEM = "release-generator";
/** Progress is recorded about this many times a generation, and at most every PROGRESS_MS. */
const PROGRESS_STEPS = 20;
const PROGRESS_MS = 2000;
/** Seeds the hash of a job id that is its advisory lock's key, apart from every other lock's. */
const LOCK_SEED = 7_405_311_023;

type Projections = {
  onProgress(listener: () => void): () => void;
  waitFor(names: readonly string[], position: Position, timeoutMs?: number): Promise<boolean>;
};

export class ReleaseGenerator {
  private readonly reactor: ReactorLoop;
  /** Ends a generation's thread when the generator stops. */
  private aborted = new AbortController();

  constructor(
    private readonly deps: {
      sql: Sql;
      store: EventStore;
      logger: Logger;
      projections: Projections;
      /** Where the generation's thread connects: the database `sql` is a pool of (`Database.url`). */
      databaseUrl: string;
      /** Where the thread reads the events from: KurrentDB when set, else the database; as `store` does. */
      eventStoreUrl: string | undefined;
    },
    options: { idlePollMs?: number } = {},
  ) {
    this.reactor = new ReactorLoop(
      () => this.drain(),
      (err) => deps.logger.error({ err }, "release generation failed; retrying"),
      options.idlePollMs ?? 1000,
    );
  }

  /** Generates in the background until stopped, woken whenever the projectors make progress. */
  start(): void {
    this.aborted = new AbortController();
    this.reactor.start(this.deps.projections);
  }

  async stop(): Promise<void> {
    this.aborted.abort();
    await this.reactor.stop();
  }

  /** Generates every waiting release, oldest request first; returns how many it published. */
  async drain(): Promise<number> {
    const waiting = await this.deps.sql<{ version: string }[]>`
      select version from release_job where status in ('queued', 'generating') order by requested_at, version`;
    let published = 0;
    for (const { version } of waiting) {
      if (this.reactor.stopping) break;
      try {
        if (await this.generate(version)) published++;
      } catch (err) {
        if (!this.reactor.stopping)
          this.deps.logger.error({ err, version }, "release generation failed; retried later");
      }
    }
    return published;
  }

  /**
   * Takes the version's current job to its publication; false when there was nothing to do
   * (or another generator holds the job). An artefact sealed before a restart is published
   * as it is; otherwise it is written from the first byte.
   */
  async generate(version: string): Promise<boolean> {
    const { store } = this.deps;
    const stream = releaseStream(version);
    const { state } = await loadStream(store, releaseCatalogue, stream, releaseDecider);
    const job = state?.job;
    if (!job || (job.status !== "queued" && job.status !== "generating")) return false;
    const step = (command: ReleaseCommand) =>
      handleCommand(store, releaseCatalogue, stream, releaseDecider, command, { actor: SYSTEM, now: new Date() });
    return (
      (await this.holding(job.jobId, async () => {
        const sealed = (await findSealedArtifact(this.deps.sql, job.jobId)) ?? (await this.written(version, job, step));
        if (!sealed) return false;
        const { jobId, sha256, byteLength, chunksSha256, scope } = sealed;
        await step({ type: "PublishRelease", jobId, sha256, byteLength, chunksSha256, scope });
        return true;
      })) ?? false
    );
  }

  /**
   * Runs `work` holding the job's lock, so that of several processes one generates it (the
   * others find it held and leave it); undefined when another holds it. The lock is the
   * session's: it goes with a process that dies.
   */
  private async holding<T>(jobId: string, work: () => Promise<T>): Promise<T | undefined> {
    const session = await this.deps.sql.reserve();
    try {
      const [row] = await session<{ locked: boolean }[]>`
        select pg_try_advisory_lock(hashtextextended(${jobId}, ${LOCK_SEED})) as locked`;
      if (!row?.locked) return undefined;
      try {
        return await work();
      } finally {
        // A session already gone took its lock with it: that is no reason to lose the outcome.
        await session`select pg_advisory_unlock(hashtextextended(${jobId}, ${LOCK_SEED}))`.catch((err) =>
          this.deps.logger.warn({ err, jobId }, "a release job's lock was gone before its release"),
        );
      }
    } finally {
      session.release();
    }
  }

  /** Writes and seals the job's artefact, from its first byte; undefined when it did not get to the end. */
  private async written(
    version: string,
    job: ReleaseJob,
    step: (command: ReleaseCommand) => Promise<HandleResult<ReleaseEvent>>,
  ): Promise<SealedArtifact | undefined> {
    const { sql, projections, logger, databaseUrl, eventStoreUrl } = this.deps;
    const { jobId } = job;
    const position = positionFromString(job.position);
    // Once the stream list has passed the position, every stream the release holds is in
    // it, and no transaction can still add an event at or before the position.
    if (!(await projections.waitFor(["stream_versions"], position, 5000))) return undefined;
    const streams = await releaseStreams(sql);
    const itemsTotal = streamCount(streams);
    if (this.reactor.stopping) return undefined;
    const started = await step({ type: "StartGeneration", jobId, itemsTotal });
    const begun = started.events.find((e) => e.type === "DatasetReleaseGenerationStarted");
    if (begun?.type !== "DatasetReleaseGenerationStarted") return undefined;
    const { attempt } = begun.data;

    let recorded = { items: 0, at: Date.now() };
    let progress = Promise.resolve();
    const every = Math.max(1, Math.ceil(itemsTotal / PROGRESS_STEPS));
    const onProgress = (itemsDone: number) => {
      if (itemsDone - recorded.items < every && Date.now() - recorded.at < PROGRESS_MS) return;
      recorded = { items: itemsDone, at: Date.now() };
      // Progress is news, not state: one not recorded is logged, and the generation goes on.
      progress = progress
        .then(() => step({ type: "RecordProgress", jobId, attempt, itemsDone }))
        .then(
          () => {},
          (err) => logger.warn({ err, version }, "release progress not recorded"),
        );
    };
    const task = { databaseUrl, eventStoreUrl, jobId, version, position: job.position, streams };
    try {
      return await generateInThread(task, onProgress, this.aborted.signal);
    } finally {
      await progress;
    }
  }
}
