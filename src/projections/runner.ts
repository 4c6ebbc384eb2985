import { EventEmitter } from "node:events";
import type { Sql } from "../db/database.js";
import { comparePositions, type EventStore, type Position, type RecordedEvent } from "../event-store/port.js";
import {
  activate,
  advanceCheckpoint,
  createGeneration,
  findGeneration,
  type Generation,
  recordError,
  vacuumGeneration,
} from "./generations.js";
import type { Projector } from "./projector.js";
import { FILL, type LogReader, SharedTail } from "./tail.js";

/** How often a wait asks the database for progress this runner did not make itself. */
const POLL_MS = 50;
/** How often a catch-up tells its listener how far each projector is. */
const REPORT_MS = 200;

/**
 * What a committed batch did: which projector, and whether its read model changed, with the
 * projector's change stamp after it (what `ReadModelWatch` polls) when it did.
 */
export type Progress = { projector: string; changed: boolean; stamp?: string };

/**
 * How far a catch-up has taken a projector: `done` of the `total` events between its
 * checkpoint at the start and the head (`EventStore.distance`: on KurrentDB, bytes
 * of the log); `following` while another runner applies them (see `follow`).
 */
export type CatchUpProgress = { projector: string; done: number; total: number; following: boolean };
export type CatchUpOptions = { timeoutMs?: number; onProgress?: (progress: CatchUpProgress) => void };

export type RunnerOptions = {
  batchSize?: number;
  /** How long an idle loop sleeps before looking for events appended by other processes. */
  idlePollMs?: number;
  onError?: (projector: string, error: unknown) => void;
  /**
   * Events of the log a projector must have passed in this process before it vacuums and analyses
   * its tables (`vacuumGeneration`), which it does when it reaches the head of the log
   * (10,000 unless set); each later time waits for as many events again as all the earlier
   * ones together. A catch-up from the start of the log does it once, at its end: on the
   * embedded database it reads each table through one backend every other client waits for.
   */
  vacuumAfter?: number;
  /**
   * How long a catch-up following another runner's checkpoint (see `follow`) waits for it
   * to move before stepping itself: 5 s unless set.
   */
  followStallMs?: number;
};

/**
 * Runs projectors as catch-up subscribers of the event store. Each batch is applied in one
 * transaction that also moves the checkpoint with a compare-and-set, so effects happen
 * exactly once even with several runners (API replicas, a worker, the CLI) on one database.
 */
export class ProjectionRunner {
  private readonly batchSize: number;
  private readonly idlePollMs: number;
  private readonly progress = new EventEmitter();
  private readonly wake = new EventEmitter();
  private loops: Promise<void>[] = [];
  private stopping = false;
  /** Where each projector's active generation stands, as this runner last applied or read it. */
  private readonly reached = new Map<string, Position>();
  private readonly tail: SharedTail;
  /** Per projector: events of the log passed since its tables were last vacuumed, and how many before that. */
  private readonly growth = new Map<string, { since: number; before: number }>();

  constructor(
    private readonly sql: Sql,
    private readonly store: EventStore,
    readonly projectors: readonly Projector[],
    private readonly options: RunnerOptions = {},
  ) {
    // A backlog (an import, a server behind) in fewer transactions: with 500 the IPL's import
    // beside a running server took 85 s, not 74 (Postgres, two runs each).
    this.batchSize = options.batchSize ?? 5000;
    this.tail = new SharedTail(store, Math.max(FILL, ...projectors.map((p) => this.batchOf(p))));
    this.idlePollMs = options.idlePollMs ?? 250;
    this.progress.setMaxListeners(0);
    this.wake.setMaxListeners(0);
  }

  projector(name: string): Projector {
    const projector = this.projectors.find((p) => p.name === name);
    if (!projector)
      throw new Error(`unknown projector ${name}; known: ${this.projectors.map((p) => p.name).join(", ")}`);
    return projector;
  }

  /**
   * Calls `listener` after every batch this runner commits, with the projector and whether
   * its read model changed (a batch of events it does not handle only moves the checkpoint);
   * returns the unsubscribe.
   */
  onProgress(listener: (progress: Progress) => void): () => void {
    this.progress.on("progress", listener);
    return () => this.progress.off("progress", listener);
  }

  /** Starts one live loop per projector; a projector whose code version moved on is rebuilt first, while its old tables keep serving. */
  start(): void {
    this.stopping = false;
    const unsubscribe = this.store.onAppend(() => this.wake.emit("wake"));
    this.loops = this.projectors.map((p) => this.live(p));
    this.loops.push(new Promise<void>((resolve) => this.wake.once("stop", resolve)).then(() => unsubscribe()));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.emit("stop");
    this.wake.emit("wake");
    await Promise.all(this.loops);
  }

  /**
   * Brings every projector's active generation up to the head of the log as it is now,
   * telling `onProgress` after every batch. The projectors advance together, so those near
   * each other share the tail's reads of the log (`SharedTail`) instead of reading and
   * parsing it once each, and their transactions overlap. Events committed before the call may still be hidden
   * behind a slower transaction elsewhere (see docs/event-store.md): catching up waits for
   * them, up to `timeoutMs`.
   */
  async catchUp(
    names: readonly string[] = this.projectors.map((p) => p.name),
    { timeoutMs = 60_000, onProgress }: CatchUpOptions = {},
  ): Promise<void> {
    const head = await this.store.head();
    const deadline = Date.now() + timeoutMs;
    let failed = false;
    const catchUpOne = async (name: string) => {
      const projector = this.projector(name);
      let generation = await this.activeGeneration(projector);
      // As a live loop does: a newer deployment owns a generation of a higher version, and
      // one of a lower version (this code bumped it) is replayed into tables of this version.
      if (generation.version > projector.version) return;
      if (generation.version < projector.version) generation = await this.rebuild(name);
      const total = onProgress ? await this.store.distance(generation.checkpoint, head) : 0;
      let reported = { at: 0, following: false };
      // Counting what is left is a query: at most every REPORT_MS, but at once at the head
      // and when another runner starts or stops applying the events.
      const report = async (checkpoint: Position, following = false) => {
        const atHead = comparePositions(checkpoint, head) >= 0;
        const due = atHead || following !== reported.following || Date.now() - reported.at >= REPORT_MS;
        if (!onProgress || !due) return;
        reported = { at: Date.now(), following };
        const left = atHead ? 0 : await this.store.distance(checkpoint, head);
        onProgress({ projector: name, done: Math.max(0, total - left), total, following });
      };
      await report(generation.checkpoint);
      let reader = this.tail.join(generation.checkpoint);
      try {
        while (!failed && comparePositions(generation.checkpoint, head) < 0) {
          const step = await this.step(projector, generation, reader);
          generation = step.generation;
          if (step.lost) {
            // Not reading while it follows: it must not hold the others back.
            reader.leave();
            generation = await this.follow(projector, generation, head, report, () => failed);
            reader = this.tail.join(generation.checkpoint);
          }
          await report(generation.checkpoint);
          if (step.applied > 0) continue;
          if (Date.now() > deadline)
            throw new Error(`${name} could not reach the head of the log within ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      } finally {
        reader.leave();
      }
    };
    // The first failure stops the others at their next batch, so none runs on unawaited.
    const outcomes = await Promise.allSettled(
      names.map((name) =>
        catchUpOne(name).catch((error: unknown) => {
          failed = true;
          throw error;
        }),
      ),
    );
    const failure = outcomes.find((o) => o.status === "rejected");
    if (failure) throw failure.reason;
  }

  /**
   * Another runner (a running server's, beside this command) applied the batch this one had
   * read: rather than race it for every batch, reading and parsing the log twice over, this
   * one watches the checkpoint until it reaches `head`, or another projector's catch-up
   * failed. It steps again once the checkpoint has stood still for `followStallMs` (that
   * runner stopped or died, or is in a batch longer than that); the compare-and-set keeps a
   * step that races it harmless.
   */
  private async follow(
    projector: Projector,
    generation: Generation,
    head: Position,
    report: (checkpoint: Position, following: boolean) => Promise<void>,
    failed: () => boolean,
  ): Promise<Generation> {
    let moved = Date.now();
    let current = generation;
    const stalled = () => Date.now() - moved >= (this.options.followStallMs ?? 5_000);
    while (comparePositions(current.checkpoint, head) < 0 && !stalled() && !failed() && !this.stopping) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const fresh = (await findGeneration(this.sql, projector.name, "active")) ?? current;
      const hasMoved = comparePositions(fresh.checkpoint, current.checkpoint) !== 0;
      current = fresh;
      // A report counts the events left (a query): only when there are fewer.
      if (hasMoved) {
        moved = Date.now();
        await report(current.checkpoint, true);
      }
    }
    return current;
  }

  /** Makes sure every projector has an active generation, so readers find its views from the start. */
  async prepare(): Promise<void> {
    for (const projector of this.projectors) await this.activeGeneration(projector);
  }

  /**
   * Replays the log from the start into fresh tables while the current ones keep serving,
   * then switches readers over in one transaction. Resumes an interrupted rebuild.
   */
  async rebuild(name: string): Promise<Generation> {
    const projector = this.projector(name);
    let building = await createGeneration(this.sql, projector);
    for (;;) {
      const step = await this.step(projector, building);
      building = step.generation;
      if (step.applied > 0) continue;
      if (building.state === "active" || (await activate(this.sql, projector, building))) {
        this.progress.emit("progress", { projector: name, changed: true }); // readers now see the new generation
        return (await findGeneration(this.sql, projector.name, "active")) as Generation;
      }
    }
  }

  /**
   * Read-your-writes: resolves true once every named projector's active generation has
   * applied the log up to `position`, false if that takes longer than `timeoutMs`.
   */
  async waitFor(names: readonly string[], position: Position, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    // This runner's own batches answer most waits without a query; the database is asked
    // at most every POLL_MS, for what other runners (a worker, another replica) applied.
    let polled = 0;
    for (;;) {
      if (names.every((name) => this.hasReached(name, position))) return true;
      if (Date.now() - polled >= POLL_MS) {
        polled = Date.now();
        await this.readCheckpoints(names);
        if (names.every((name) => this.hasReached(name, position))) return true;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      this.wake.emit("wake");
      await this.nextProgress(Math.min(remaining, POLL_MS));
    }
  }

  private hasReached(name: string, position: Position): boolean {
    const reached = this.reached.get(name);
    return reached !== undefined && comparePositions(reached, position) >= 0;
  }

  /** Notes how far a projector's active generation is; never backwards. */
  private noteReached(name: string, position: Position): void {
    if (!this.hasReached(name, position)) this.reached.set(name, position);
  }

  private async readCheckpoints(names: readonly string[]): Promise<void> {
    const rows = await this.sql<{ projector: string; commit: string; index: string }[]>`
      select projector, checkpoint_commit::text as commit, checkpoint_index::text as index from projector_generations
      where state = 'active' and projector = any(${names as string[]})`;
    for (const row of rows) this.noteReached(row.projector, { commit: BigInt(row.commit), index: BigInt(row.index) });
  }

  private async live(projector: Projector): Promise<void> {
    // Unpaced (see `SharedTail.join`): a fast projector a request waits for (accounts, stream
    // versions) must not wait behind statistics in a backlog. Paced, the import beside a
    // running server took 74 and 75 s against 76 and 82 s unpaced: within the noise.
    while (!this.stopping) {
      try {
        const active = await this.activeGeneration(projector);
        // A newer deployment owns a generation of a higher version; an older one waits for it.
        if (active.version > projector.version) await this.idle();
        else if (active.version < projector.version) await this.rebuild(projector.name);
        else {
          const { applied } = await this.step(projector, active);
          if (applied === 0) await this.idle();
          // Caught up (a short batch): rest, if the projector asks to, before taking the next.
          else if (projector.restMs && applied < this.batchOf(projector)) await this.rest(projector.restMs);
        }
      } catch (error) {
        this.options.onError?.(projector.name, error);
        await this.idle();
      }
    }
  }

  private async activeGeneration(projector: Projector): Promise<Generation> {
    return (await findGeneration(this.sql, projector.name, "active")) ?? createGeneration(this.sql, projector);
  }

  /** Applies the next batch after the generation's checkpoint; `applied` is 0 when caught up. */
  private async step(projector: Projector, generation: Generation, reader: LogReader = this.tail) {
    const events = await reader.readAll(generation.checkpoint, this.batchOf(projector));
    const last = events.at(-1);
    if (!last) {
      await this.vacuumWhenGrown(projector, generation, 0, true);
      return { generation, applied: 0 };
    }
    const handled = projector.types ? events.filter((e) => projector.types?.has(e.type)) : events;
    let stamp: string | undefined;
    try {
      // A batch with nothing to apply only moves the checkpoint: one statement, no transaction.
      stamp =
        handled.length === 0
          ? await advanceCheckpoint(this.sql, generation, generation.checkpoint, last.position, 0)
          : await this.apply(projector, generation, last.position, handled);
      if (stamp === undefined) {
        // Another runner moved this generation on, or it was retired by a switch.
        const fresh = await findGeneration(
          this.sql,
          projector.name,
          generation.state === "building" ? "building" : "active",
        );
        return { generation: fresh ?? (await this.activeGeneration(projector)), applied: events.length, lost: true };
      }
    } catch (error) {
      await recordError(this.sql, generation, error instanceof Error ? error.message : String(error));
      throw error;
    }
    if (generation.state === "active") this.noteReached(projector.name, last.position);
    await this.vacuumWhenGrown(projector, generation, events.length, events.length < this.batchOf(projector));
    const changed = handled.length > 0 && generation.state === "active";
    this.progress.emit("progress", { projector: projector.name, changed, ...(changed ? { stamp } : {}) });
    return { generation: { ...generation, checkpoint: last.position }, applied: events.length };
  }

  /** Applies a batch's events and moves the checkpoint past them, in one transaction: exactly once. */
  private apply(projector: Projector, generation: Generation, to: Position, events: readonly RecordedEvent[]) {
    return this.sql.begin(async (tx) => {
      // Sent together: one round trip once the connection has prepared the update. A batch of
      // a rebuild may recompute a season's statistics: no statement bound.
      const [stamp] = await Promise.all([
        advanceCheckpoint(tx, generation, generation.checkpoint, to, events.length),
        tx`select set_config('search_path', ${`${generation.schemaName}, public`}, true),
                  set_config('statement_timeout', '0', true)`,
      ]);
      if (stamp === undefined) return undefined;
      await projector.apply(tx, events);
      return stamp;
    });
  }

  /**
   * Counts the events of the log a batch passed (handled or not: a fixture's three events
   * write two dozen squad rows) and, once the projector is caught up (`atHead`) with as many
   * passed since the last time as before it (at least `vacuumAfter`), vacuums and analyses
   * the generation's tables. A failure (the generation retired meanwhile) is reported and
   * leaves the count as it was, so the next time at the head tries again.
   */
  private async vacuumWhenGrown(projector: Projector, generation: Generation, passed: number, atHead: boolean) {
    const growth = this.growth.get(projector.name) ?? { since: 0, before: 0 };
    growth.since += passed;
    this.growth.set(projector.name, growth);
    if (!atHead || growth.since < Math.max(this.options.vacuumAfter ?? 10_000, growth.before)) return;
    const { since, before } = growth;
    growth.before += since;
    growth.since = 0;
    await vacuumGeneration(this.sql, generation).catch((error: unknown) => {
      growth.since += since;
      growth.before = before;
      this.options.onError?.(projector.name, error);
    });
  }

  private batchOf(projector: Projector): number {
    return projector.batchSize ?? this.batchSize;
  }

  /** Waits `ms`, or less when the runner stops; new events do not end a rest. */
  private rest(ms: number): Promise<void> {
    return signalOrTimeout(this.wake, "stop", ms);
  }

  /** Waits for new events (a local append, or the runner stopping), at most `idlePollMs`. */
  private idle(): Promise<void> {
    return signalOrTimeout(this.wake, "wake", this.idlePollMs);
  }

  private nextProgress(timeoutMs: number): Promise<void> {
    return signalOrTimeout(this.progress, "progress", timeoutMs);
  }
}

/** Resolves when `emitter` emits `signal`, or after `ms`, whichever comes first. */
export function signalOrTimeout(emitter: EventEmitter, signal: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off(signal, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.once(signal, done);
  });
}
