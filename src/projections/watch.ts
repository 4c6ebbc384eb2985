import { Lru } from "../cache/lru.js";
import type { Sql } from "../db/database.js";
import type { ProjectionRunner } from "./runner.js";

export type WatchOptions = {
  /** How often the projectors' change stamps are read to notice batches of other processes. */
  pollMs?: number;
  /** Most memoised values; past it the least recently used go first. */
  maxEntries?: number;
  /** Memoised values are served only this long after the last poll that succeeded (default 10 polls). */
  maxStaleMs?: number;
};

/**
 * Knows, without a query per request, when each read model last changed, so values read from
 * them (a fixture's versions, a season's name, a rendered answer) can be memoised until the
 * next change of what they were read from, instead of being read again on every request.
 *
 * A read model changes only when its projector commits a batch with events it handles;
 * `projector_generations.events_applied` counts those, so a projector's generation and count
 * are its change stamp (a batch of events it ignores only moves its checkpoint and changes
 * nothing here). This process's own runner (`follow`) reports its batches as they commit, so
 * nothing it projected is ever served stale here. Batches committed by other processes (a
 * worker, `cricket projections rebuild`) show as new stamps, read every `pollMs`: a replica
 * serves values at most that much older than the projection, which itself trails the log.
 * While the stamps cannot be read, nothing is memoised, and a poll that hangs (a stalled
 * database) stops the memo from answering after `maxStaleMs`: a revoked key is never
 * accepted for long on a memo nobody can check.
 */
export class ReadModelWatch {
  private readonly memo: Lru<{ version: string; value: unknown }>;
  /** Changes seen per projector; `ANY` counts every change of any of them. */
  private readonly changes = new Map<string, number>();
  /** Each projector's stamp as last polled. */
  private stamps = new Map<string, string>();
  private trusted = false;
  private freshUntil = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly unfollow: (() => void)[] = [];
  private readonly pollMs: number;
  private readonly maxStaleMs: number;

  constructor(
    private readonly sql: Sql,
    options: WatchOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 100;
    this.memo = new Lru(options.maxEntries ?? 10_000);
    this.maxStaleMs = options.maxStaleMs ?? 10 * this.pollMs;
  }

  /** Starts polling; resolves once the first stamps are read (memoising starts then). */
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
    this.unfollow.push(
      runner.onProgress(({ projector, changed, stamp }) => {
        if (!changed) return;
        this.changed([projector]);
        // The poll then finds this stamp already known: one batch, one change.
        if (stamp !== undefined) this.stamps.set(projector, stamp);
      }),
    );
  }

  /**
   * Where the read models of `projectors` (all of them when undefined) stand, as a string
   * that changes whenever one of them does; undefined while nothing can be trusted (before
   * the first poll, after a failed one, or when polls have stalled).
   */
  version(projectors?: readonly string[]): string | undefined {
    if (!this.trusted || Date.now() > this.freshUntil) return undefined;
    const count = (name: string) => this.changes.get(name) ?? 0;
    return projectors ? projectors.map(count).join(".") : String(count(ANY));
  }

  /**
   * `compute()`'s value, memoised under `key` until the read models of `projectors` (all of
   * them when undefined) change.
   */
  async value<T>(key: string, compute: () => Promise<T>, projectors?: readonly string[]): Promise<T> {
    const version = this.version(projectors);
    const memoised = version === undefined ? undefined : this.memo.get(key);
    if (memoised && memoised.version === version) return memoised.value as T;
    const value = await compute();
    // A value read while a batch committed may predate it: serve it, but do not keep it.
    if (version !== undefined && this.version(projectors) === version) this.memo.set(key, { version, value });
    return value;
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const unfollow of this.unfollow.splice(0)) unfollow();
    this.trusted = false;
  }

  private changed(projectors: Iterable<string>): void {
    for (const name of [...projectors, ANY]) this.changes.set(name, (this.changes.get(name) ?? 0) + 1);
  }

  private async poll(): Promise<void> {
    try {
      const rows = await this.sql<{ projector: string; stamp: string }[]>`
        select projector, generation || ':' || events_applied as stamp
        from projector_generations where state = 'active'`;
      const stamps = new Map(rows.map((r) => [r.projector, r.stamp]));
      const moved = [...stamps].filter(([projector, stamp]) => this.stamps.get(projector) !== stamp);
      if (moved.length > 0) this.changed(moved.map(([projector]) => projector));
      this.stamps = stamps;
      this.trusted = true;
      this.freshUntil = Date.now() + this.maxStaleMs;
    } catch {
      // Unknown whether anything changed: stop memoising until a poll succeeds, and treat
      // every read model as changed then.
      this.trusted = false;
      this.stamps = new Map();
    }
  }
}

/** The count of changes to any read model. */
const ANY = "*";
