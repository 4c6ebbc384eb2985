import type { Context, MiddlewareHandler } from "hono";
import { type Admission, admit, type Limit } from "../limits/fixed-window.js";
import { type CountedWindow, LimitUnavailable } from "../limits/window-counter.js";
import type { AppDependencies } from "./app.js";
import { callerOf } from "./authentication.js";
import { ApiError } from "./errors.js";

type Headers = Record<string, string>;

const secondsUntil = (at: number, now: number) => String(Math.max(0, Math.ceil((at - now) / 1000)));

/** The RateLimit-* fields (IETF draft): the limit, what is left, seconds until the window resets. */
export const rateLimitHeaders = (a: Admission, now: number): Headers => ({
  "RateLimit-Limit": String(a.limit),
  "RateLimit-Remaining": String(a.remaining),
  "RateLimit-Reset": secondsUntil(a.resetAt, now),
});

/** The same three for a daily quota; the reset, like RateLimit-Reset, in seconds from now. */
export const quotaHeaders = (a: Admission, now: number): Headers => ({
  "X-Quota-Limit": String(a.limit),
  "X-Quota-Remaining": String(a.remaining),
  "X-Quota-Reset": secondsUntil(a.resetAt, now),
});

export const retryAfter = (a: Admission): Headers => ({ "Retry-After": String(a.retryAfterSeconds) });

/**
 * Counts the request against `limits` in turn (see WindowCounter.hit). It fails closed: an
 * unreachable counter admits nothing (503 RATE_LIMIT_UNAVAILABLE).
 */
export async function countRequest(
  deps: AppDependencies,
  c: Context,
  limits: readonly CountedWindow[],
  now: number,
): Promise<Admission[]> {
  try {
    if (!deps.rateLimits) throw new Error("createApp gives every app a counter");
    return await admit(deps.rateLimits, limits, now);
  } catch (error) {
    if (!(error instanceof LimitUnavailable)) throw error;
    deps.logger.error({ requestId: c.get("requestId"), err: error }, "rate limit counter unavailable");
    throw new ApiError("RATE_LIMIT_UNAVAILABLE", "The rate limit cannot be checked just now; nothing was admitted");
  }
}

/** 429 RATE_LIMIT_EXCEEDED for the window that refused, with its RateLimit-* fields and Retry-After. */
export const rateLimitExceeded = (
  refused: Admission,
  windowMs: number,
  now: number,
  message = `At most ${refused.limit} requests per ${windowMs / 1000} seconds; retry after ${refused.retryAfterSeconds} s`,
) =>
  new ApiError("RATE_LIMIT_EXCEEDED", message).withHeaders({
    ...rateLimitHeaders(refused, now),
    ...retryAfter(refused),
  });

/**
 * A per-account fixed-window limit on the routes it is mounted on, after `requireCaller`;
 * all of them share one budget. Accepted answers carry the RateLimit-* fields too.
 */
export function accountLimit(deps: AppDependencies, name: string, limit: Limit): MiddlewareHandler {
  return async (c, next) => {
    const now = Date.now();
    const admission = await admitKey(deps, c, callerOf(c).account.accountId, name, limit, now);
    await next();
    for (const [header, value] of Object.entries(rateLimitHeaders(admission, now))) c.res.headers.set(header, value);
  };
}

/**
 * Counts one request under `key` (an account id, a client's `sourceOf`, a keyed digest)
 * against `name`'s limit (the web UI's forms share the API's), refusing past it (429).
 */
export async function admitKey(
  deps: AppDependencies,
  c: Context,
  key: string,
  name: string,
  limit: Limit,
  now = Date.now(),
): Promise<Admission> {
  const [admission] = (await countRequest(deps, c, [{ key: `${name}:${key}`, ...limit }], now)) as [Admission];
  if (!admission.allowed) throw rateLimitExceeded(admission, limit.windowMs, now);
  return admission;
}
