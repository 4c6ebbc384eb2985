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
   * Adds one hit to `key`'s current window and returns the count including it and when the
   * window ends (epoch ms). Throws LimitUnavailable when the shared counter cannot be reached.
   */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  close(): Promise<void>;
}

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
