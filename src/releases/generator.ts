import { EventEmitter } from "node:events";
import { releaseCatalogue, releaseStream } from "../../streams/release.js";
import { handleCommand, loadStream } from "../commands/handle.js";
import { type ReleaseCommand, releaseDecider } from "../commands/releases/decide.js";
import type { Sql } from "../db/database.js";
import { type EventStore, type Position, positionFromString } from "../event-store/port.js";
import type { Logger } from "../http/logging.js";
import { signalOrTimeout } from "../projections/runner.js";
import { releaseArtifact, releaseStreams, streamCount } from "./artifact.js";
import { ArtifactWriter, sealArtifact } from "./artifact-store.js";

/**
 * Generates requested releases: a reactor on the log, as the batch validator is. Its work
 * list is the jobs the `releases` read model shows queued or generating; each job's stream
 * says where it is. A generation always starts from the first byte (the bytes are a
 * function of the position, so a restarted one writes what the first wrote, and the chunk
 * store checks that it does); it is published once, by whichever generator finishes first
 * (docs/releases.md, "Jobs").
 */

const SYSTEM = "release-generator";
/** Progress is recorded about this many times a generation, and at most every PROGRESS_MS. */
const PROGRESS_STEPS = 20;
const PROGRESS_MS = 2000;

type Projections = {
  onProgress(listener: () => void): () => void;
  waitFor(names: readonly string[], position: Position, timeoutMs?: number): Promise<boolean>;
};

export class ReleaseGenerator {
  private readonly wake = new EventEmitter();
  private loop: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly deps: { sql: Sql; store: EventStore; logger: Logger; projections: Projections },
    private readonly options: { idlePollMs?: number } = {},
  ) {}

  /** Generates in the background until stopped, woken whenever the projectors make progress. */
  start(): void {
    this.stopping = false;
    const unsubscribe = this.deps.projections.onProgress(() => this.wake.emit("wake"));
    this.loop = (async () => {
      while (!this.stopping) {
        try {
          await this.drain();
        } catch (err) {
          this.deps.logger.error({ err }, "release generation failed; retrying");
        }
        await signalOrTimeout(this.wake, "wake", this.options.idlePollMs ?? 1000);
      }
      unsubscribe();
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.emit("wake");
    await this.loop;
  }

  /** Generates every waiting release, oldest request first; returns how many it published. */
  async drain(): Promise<number> {
    const waiting = await this.deps.sql<{ version: string }[]>`
      select version from release_job where status in ('queued', 'generating') order by requested_at, version`;
    let published = 0;
    for (const { version } of waiting) {
      if (this.stopping) break;
      try {
        if (await this.generate(version)) published++;
      } catch (err) {
        this.deps.logger.error({ err, version }, "release generation failed; retried later");
      }
    }
    return published;
  }

  /** Generates the version's current job from its first byte to its publication; false when there was nothing to do. */
  async generate(version: string): Promise<boolean> {
    const { sql, store, projections } = this.deps;
    const stream = releaseStream(version);
    const { state } = await loadStream(store, releaseCatalogue, stream, releaseDecider);
    const job = state?.job;
    if (!job || (job.status !== "queued" && job.status !== "generating")) return false;
    const { jobId } = job;
    const step = (command: ReleaseCommand) =>
      handleCommand(store, releaseCatalogue, stream, releaseDecider, command, { actor: SYSTEM, now: new Date() });

    const position = positionFromString(job.position);
    // Once the stream list has passed the position, every stream the release holds is in
    // it, and no transaction can still add an event at or before the position.
    if (!(await projections.waitFor(["stream_versions"], position, 30_000))) return false;
    const streams = await releaseStreams(sql);
    const itemsTotal = streamCount(streams);
    const started = await step({ type: "StartGeneration", jobId, itemsTotal });
    const begun = started.events.find((e) => e.type === "DatasetReleaseGenerationStarted");
    if (begun?.type !== "DatasetReleaseGenerationStarted") return false;
    const { attempt } = begun.data;

    let itemsDone = 0;
    let recorded = { items: 0, at: Date.now() };
    const every = Math.max(1, Math.ceil(itemsTotal / PROGRESS_STEPS));
    const artifact = releaseArtifact(store, streams, { version, position }, async () => {
      itemsDone++;
      if (itemsDone - recorded.items < every && Date.now() - recorded.at < PROGRESS_MS) return;
      recorded = { items: itemsDone, at: Date.now() };
      await step({ type: "RecordProgress", jobId, attempt, itemsDone });
    });
    const writer = new ArtifactWriter(sql, jobId);
    for await (const text of artifact.text) {
      if (this.stopping) return false;
      await writer.write(text);
    }
    const stored = { version, ...(await writer.finish()) };
    await sealArtifact(sql, stored);
    const { sha256, byteLength } = stored;
    await step({ type: "PublishRelease", jobId, sha256, byteLength, scope: artifact.scope() });
    return true;
  }
}
