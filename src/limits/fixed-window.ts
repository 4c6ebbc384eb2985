import type { WindowCounter } from "./window-counter.js";

export type Limit = { limit: number; windowMs: number };

export type Admission = {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: number;
  /** Whole seconds until resetAt, at least 1. */
  retryAfterSeconds: number;
};

/**
 * Counts this request against `key` and says whether it is within the limit. A refused
 * request still counts (so hammering does not reset anything); remaining never goes below 0.
 * Throws LimitUnavailable when the counter cannot be reached.
 */
export async function admit(
  counter: WindowCounter,
  key: string,
  { limit, windowMs }: Limit,
  now: number,
): Promise<Admission> {
  const { count, resetAt } = await counter.hit(key, windowMs, now);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    // Rounded up: a client retrying after a rounded-down wait would land in the same window.
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
  };
}
