import type { Sql } from "../db/database.js";
import type { ProjectionRunner } from "./runner.js";

export type WatchOptions = {
  /** How often the projectors' checkpoints are read to notice batches of other processes. */
  pollMs?: number;
  /** Most memoised values; past it the memo starts over. */
  maxEntries?: number;
  /** Memoised values are served only this long after the last poll that succeeded (default 10 polls). */
  maxStaleMs?: number;
};

/**
 * Knows, without a query per request, when the read models last changed, so values read from
 * them (a fixture's versions, the statistics checkpoint, a season's name) can be memoised
 * until the next change instead of being read again on every request.
 *
 * A read model changes only when a projector commits a batch. This process's own runner
 * (`follow`) reports its batches as they commit, so nothing it projected is ever served
 * stale here. Batches committed by other processes (a worker, `cricket projections rebuild`)
 * show as a new fingerprint of the active generations and their checkpoints, read every
 * `pollMs`: a replica serves values at most that much older than the projection, which
 * itself trails the log. While the fingerprint cannot be read, nothing is memoised, and a
 * poll that hangs (a stalled database) stops the memo from answering after `maxStaleMs`: a
 * revoked key is never accepted for long on a memo nobody can check.
 */
export class ReadModelWatch {
  private readonly memo = new Map<string, unknown>();
  private epoch = 0;
  private fingerprint: string | undefined;
  private trusted = false;
  private freshUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly unfollow: (() => void)[] = [];
  private readonly pollMs: number;
  private readonly maxEntries: number;
  private readonly maxStaleMs: number;

  constructor(
    private readonly sql: Sql,
    options: WatchOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 100;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxStaleMs = options.maxStaleMs ?? 10 * this.pollMs;
  }

  /** Starts polling; resolves once the first fingerprint is read (memoising starts then). */
  async start(): Promise<void> {
    await this.poll();
    const tick = () => {
      this.timer = setTimeout(() => void this.poll().finally(() => this.timer && tick()), this.pollMs);
      this.timer.unref();
    };
    tick();
  }

  /** Learns of every batch `runner` commits at once, before the poll would. */
  follow(runner: ProjectionRunner): void {
    this.unfollow.push(runner.onProgress(() => this.changed()));
  }

  /** `compute()`'s value, memoised under `key` until the read models change. */
  async value<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const fresh = Date.now() <= this.freshUntil;
    if (fresh && this.memo.has(key)) return this.memo.get(key) as T;
    const epoch = this.epoch;
    const value = await compute();
    // A value read while a batch committed may predate it: serve it, but do not keep it.
    if (fresh && this.trusted && epoch === this.epoch) {
      if (this.memo.size >= this.maxEntries) this.memo.clear();
      this.memo.set(key, value);
    }
    return value;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const unfollow of this.unfollow.splice(0)) unfollow();
    this.changed();
  }

  private changed(): void {
    this.epoch++;
    this.memo.clear();
  }

  private async poll(): Promise<void> {
    try {
      const [row] = await this.sql<{ fingerprint: string }[]>`
        select coalesce(string_agg(projector || ':' || generation || ':' || checkpoint_commit || ':' || checkpoint_index,
                                   ',' order by projector), '') as fingerprint
        from projector_generations where state = 'active'`;
      if (row?.fingerprint !== this.fingerprint) this.changed();
      this.fingerprint = row?.fingerprint;
      this.trusted = true;
      this.freshUntil = Date.now() + this.maxStaleMs;
    } catch {
      // Unknown whether anything changed: forget and stop memoising until a poll succeeds.
      this.trusted = false;
      this.fingerprint = undefined;
      this.changed();
    }
  }
}
