import type { MiddlewareHandler } from "hono";
import { type Admission, admit, type Limit } from "../limits/fixed-window.js";
import { memoryWindowCounter } from "../limits/memory.js";
import { LimitUnavailable } from "../limits/window-counter.js";
import type { AppDependencies } from "./app.js";
import { callerOf } from "./authentication.js";
import { ApiError } from "./errors.js";

/** The RateLimit-* fields (IETF draft): the limit, what is left, seconds until the window resets. */
export const rateLimitHeaders = (a: Admission, now: number): Record<string, string> => ({
  "RateLimit-Limit": String(a.limit),
  "RateLimit-Remaining": String(a.remaining),
  "RateLimit-Reset": String(Math.max(0, Math.ceil((a.resetAt - now) / 1000))),
});

/**
 * A per-account fixed-window limit on the routes it is mounted on, after `requireCaller`;
 * all of them share one budget. The counter is the app's (Redis when configured, so every
 * instance counts together), else this process's. It fails closed: an unreachable counter
 * admits nothing (503 RATE_LIMIT_UNAVAILABLE).
 */
export function accountLimit(deps: AppDependencies, name: string, limit: Limit): MiddlewareHandler {
  const counter = deps.rateLimits ?? memoryWindowCounter();
  return async (c, next) => {
    const now = Date.now();
    let admission: Admission;
    try {
      admission = await admit(counter, `${name}:${callerOf(c).account.accountId}`, limit, now);
    } catch (error) {
      if (!(error instanceof LimitUnavailable)) throw error;
      deps.logger.error({ requestId: c.get("requestId"), err: error }, "rate limit counter unavailable");
      throw new ApiError("RATE_LIMIT_UNAVAILABLE", "The rate limit cannot be checked just now; nothing was admitted");
    }
    const headers = rateLimitHeaders(admission, now);
    if (!admission.allowed)
      throw new ApiError(
        "RATE_LIMIT_EXCEEDED",
        `At most ${limit.limit} requests per ${limit.windowMs / 1000} seconds; retry after ${admission.retryAfterSeconds} s`,
      ).withHeaders({ ...headers, "Retry-After": String(admission.retryAfterSeconds) });
    await next();
    for (const [header, value] of Object.entries(headers)) c.res.headers.set(header, value);
  };
}
