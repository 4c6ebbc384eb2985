import type { CountedWindow, WindowCounter } from "./window-counter.js";

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
 * Counts this request against each limit in turn and says whether it is within them: one
 * admission per limit counted, the last one refused when any is (the limits after it are
 * not counted). A refused request still counts (so hammering does not reset anything);
 * remaining never goes below 0. Throws LimitUnavailable when the counter cannot be reached.
 */
export async function admit(
  counter: WindowCounter,
  limits: readonly CountedWindow[],
  now: number,
): Promise<Admission[]> {
  const counts = await counter.hit(limits, now);
  return counts.map(({ count, resetAt }, i) => {
    const { limit } = limits[i] as CountedWindow;
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt,
      // Rounded up: a client retrying after a rounded-down wait would land in the same window.
      retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
    };
  });
}
