/**
 * Counts hits in fixed windows aligned to multiples of their length since the Unix epoch,
 * so a 60 000 ms window is the UTC minute and an 86 400 000 ms window the UTC day.
 *
 * Adapters: in-process (`memoryWindowCounter`, a single embedded instance) and Redis
 * (`redisWindowCounter`, when REDIS_URL is set), so every API instance counts against the
 * same windows.
 */
export interface WindowCounter {
  readonly kind: "memory" | "redis";
  /**
   * Adds one hit to each window's current count in turn, stopping after the first window the
   * hit takes over its limit: a request refused by one limit costs the later ones nothing (a
   * consumer's minute before its daily quota, a client before the platform's budget). Returns
   * the count including this hit and when the window ends (epoch ms) for each window hit, in
   * order, in one atomic step. Throws LimitUnavailable when the shared counter cannot be reached.
   */
  hit(windows: readonly CountedWindow[], now: number): Promise<WindowCount[]>;
  /** Resolves when the counter answers (within the same bound as a hit), rejects when it does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A fixed window to count a hit in: whose (`key`), how long, and the count it may reach. */
export type CountedWindow = { key: string; windowMs: number; limit: number };
export type WindowCount = { count: number; resetAt: number };

/**
 * The counter could not be reached, so nothing can be admitted: limits fail closed (the HTTP
 * layer answers 503 RATE_LIMIT_UNAVAILABLE).
 */
export class LimitUnavailable extends Error {
  override readonly name = "LimitUnavailable";
  constructor(cause?: unknown) {
    super("The rate limit counter is unavailable.", { cause });
  }
}

/** The start (epoch ms) of the window of length `windowMs` that holds `now`. */
export const windowStart = (now: number, windowMs: number) => {
  if (!Number.isSafeInteger(windowMs) || windowMs <= 0) {
    throw new RangeError(`A window must be a positive whole number of milliseconds, not ${windowMs}.`);
  }
  return Math.floor(now / windowMs) * windowMs;
};

/**
 * Where a window's count lives. The length is part of it: a key limited per minute and per
 * day would otherwise share one count at every UTC midnight, where both windows start.
 */
export const windowId = (key: string, windowMs: number, start: number) => `${key}:${windowMs}:${start}`;
