import { hash } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { API_KEY_PREFIX_PATTERN } from "../../streams/consumer.js";
import { parseApiKey } from "../consumers/api-key.js";
import { type ActiveKey, findActiveKey } from "../consumers/queries.js";
import type { Admission } from "../limits/fixed-window.js";
import { sourceNetwork } from "../limits/source-network.js";
import type { CountedWindow } from "../limits/window-counter.js";
import { type AppDependencies, secretOf } from "./app.js";
import { ApiError, asApiError } from "./errors.js";
import { countRequest, quotaHeaders, rateLimitExceeded, rateLimitHeaders, retryAfter } from "./rate-limits.js";

/*
 * The access classes of the cricket-resource reads (spec, Authentication):
 * - canonical reads: no X-API-Key is anonymous, within the per-source and platform limits;
 *   a valid key selects its consumer's limits, quota and telemetry; any other key is 401,
 *   never an anonymous fallback;
 * - consumer-only routes (/consumer/usage and the deprecated aliases): a valid key or 401.
 * Keys authorise nothing else: the application routes look at bearer tokens only.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const CONSUMER = "consumer";
export const API_KEY_HEADER = "X-API-Key";

const keyRefused = () => new ApiError("API_KEY_UNAUTHORIZED", "A valid API key is required in the X-API-Key header");

/** `Authorization: Bearer ck_…` (or any scheme): an API key sent where a token goes. */
const API_KEY_IN_TEXT = new RegExp(`^(\\S+\\s+)?${API_KEY_PREFIX_PATTERN}_`);
export const looksLikeApiKey = (credential: string | undefined) =>
  credential !== undefined && API_KEY_IN_TEXT.test(credential.trim());

/** The slip is answered, never ignored: ignored, the request would be served as anonymous and limited as such. */
const keyInAuthorization = () =>
  new ApiError(
    "API_KEY_UNAUTHORIZED",
    "An API key goes in the X-API-Key header, not in Authorization: send `X-API-Key: ck_…`",
  );

/**
 * The holder of the request's key, or undefined for a malformed, unknown or revoked one.
 * Only holders are memoised, until the consumers' read model changes (a revocation does):
 * a miss is never kept, so made-up keys cannot crowd the shared memo. The memo is keyed by a
 * hash of the key, so no key is held; a plain SHA-256 suffices (keys are 256-bit random)
 * and costs a fraction of the keyed digest. One-shot `hash`, not `createHash`: a Hash
 * object per request is a native handle the collector must finalise, which cost keyed
 * reads about a twentieth of their throughput.
 */
async function holderOf(deps: AppDependencies, rawKey: string): Promise<ActiveKey | undefined> {
  const { sql, secret, watch } = deps;
  if (!sql || !secret) throw new Error("keyed reads need the read models and the server secret");
  if (parseApiKey(rawKey) === undefined) return undefined;
  if (!watch) return findActiveKey(sql, secret, rawKey);
  const memoKey = `api-key:${hash("sha256", rawKey, "base64url")}`;
  return watch
    .value(memoKey, async () => {
      const holder = await findActiveKey(sql, secret, rawKey);
      if (!holder) throw NO_HOLDER;
      return holder;
    }, ["consumers"])
    .catch((error: unknown) => {
      if (error === NO_HOLDER) return undefined;
      throw error;
    });
}
/** Thrown inside the memo so that a miss is not memoised. */
const NO_HOLDER = Symbol("no key holder");

/**
 * 401 for a key that is not valid: one message whatever was wrong with it, so a caller learns
 * nothing about which. Where anonymous reads are limited, such refusals are counted per
 * source like them (in a window of their own), so guessing keys is no way around the limits:
 * past the source's limit the answer is 429.
 */
async function refuseKey(deps: AppDependencies, c: Context): Promise<never> {
  const { anonymousLimits } = deps;
  if (anonymousLimits) {
    const now = Date.now();
    const key = `refused-key:${sourceOf(deps, c)}`;
    const limit = anonymousLimits.perSourcePerMinute;
    const [admission] = (await countRequest(deps, c, [{ key, windowMs: MINUTE_MS, limit }], now)) as [Admission];
    if (!admission.allowed) throw rateLimitExceeded(admission, MINUTE_MS, now);
  }
  throw keyRefused();
}

/**
 * A keyed request: the consumer's minute window (shared by all its keys), then, only when
 * the minute admits it, its daily quota. Accepted answers carry both sets of headers; every
 * answer, refusals included, is counted in the consumer's usage telemetry.
 */
async function keyed(deps: AppDependencies, c: Context, next: () => Promise<void>, rawKey: string) {
  const holder = (await holderOf(deps, rawKey)) ?? (await refuseKey(deps, c));
  const now = Date.now();
  let status = 500;
  try {
    const [minute, quota] = await countRequest(deps, c, windowsOf(holder), now);
    if (!minute?.allowed) throw rateLimitExceeded(minute as Admission, MINUTE_MS, now);
    const rate = rateLimitHeaders(minute, now);
    const daily = quotaHeaders(quota as Admission, now);
    if (!quota?.allowed)
      throw new ApiError(
        "QUOTA_EXCEEDED",
        `The daily quota of ${holder.dailyQuota} requests is used up; it resets at the next UTC midnight`,
      ).withHeaders({ ...rate, ...daily, ...retryAfter(quota as Admission) });
    c.set(CONSUMER as never, holder as never);
    // Set before the answer exists, so it is built with them (errors from the handler too).
    for (const header in rate) c.header(header, rate[header]);
    for (const header in daily) c.header(header, daily[header]);
    await next();
    status = c.res.status;
  } catch (error) {
    status = asApiError(error)?.status ?? status;
    throw error;
  } finally {
    deps.usage?.record({
      consumerId: holder.consumerId,
      keyId: holder.keyId,
      at: new Date(now),
      method: c.req.method,
      routePath: routePath(c),
      status,
    });
  }
}

/**
 * The consumer's windows: the minute, shared by all its keys, then the day. Kept with the
 * holder, which the watch memoises, so a consumer's every request counts in the same two
 * objects instead of building them again.
 */
const windows = new WeakMap<ActiveKey, CountedWindow[]>();
function windowsOf(holder: ActiveKey): CountedWindow[] {
  let kept = windows.get(holder);
  if (!kept) {
    kept = [
      { key: `consumer:${holder.consumerId}`, windowMs: MINUTE_MS, limit: holder.rateLimitPerMinute },
      { key: `quota:${holder.consumerId}`, windowMs: DAY_MS, limit: holder.dailyQuota },
    ];
    windows.set(holder, kept);
  }
  return kept;
}

/**
 * The client's address: the peer's, or with `trustedProxyHops` proxies in front, the address
 * the outermost trusted proxy saw (counted from the right of X-Forwarded-For, which each
 * proxy appends to). Entries a client wrote itself are further left and never reached.
 */
export function clientAddress(c: Context, trustedProxyHops: number): string {
  const peer = peerAddress(c);
  if (trustedProxyHops === 0) return peer;
  const forwarded = (c.req.header("X-Forwarded-For") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [peer, ...forwarded.reverse()];
  return chain[Math.min(trustedProxyHops, chain.length - 1)] as string;
}

/** Requests made in process (app.request, tests) have no socket: they share one source. */
const peerAddress = (c: Context) => {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
};

/**
 * An anonymous read: the client's minute window (keyed by an HMAC of its address, so no
 * address is kept), then the platform's shared one. Limited answers carry RateLimit-* and
 * Retry-After; nothing else about limits, and no telemetry. A refusal says what would lift
 * the limit: a key, where the operation takes one (`keyable`), and the setting.
 */
async function anonymous(deps: AppDependencies, c: Context, next: () => Promise<void>, keyable: boolean) {
  const { anonymousLimits } = deps;
  if (!anonymousLimits) return next();
  const source = sourceOf(deps, c);
  const now = Date.now();
  const admissions = await countRequest(
    deps,
    c,
    [
      { key: `anonymous:${source}`, windowMs: MINUTE_MS, limit: anonymousLimits.perSourcePerMinute },
      { key: "anonymous-platform", windowMs: MINUTE_MS, limit: anonymousLimits.platformPerMinute },
    ],
    now,
  );
  const refused = admissions.find((a) => !a.allowed);
  if (refused) {
    const platform = refused === admissions[1];
    const setting = platform ? "ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE" : "ANONYMOUS_RATE_LIMIT_PER_MINUTE";
    const whose = platform ? "all clients without an API key together" : "one client without an API key";
    throw rateLimitExceeded(
      refused,
      MINUTE_MS,
      now,
      `At most ${refused.limit} requests a minute from ${whose}; retry after ${refused.retryAfterSeconds} s.${keyable ? " An API key lifts this: an administrator issues one (POST /api/v1/admin/api-consumers), sent in X-API-Key." : ""} Running the service yourself? ${setting} sets this limit.`,
    );
  }
  return next();
}

/** The client's network as limits know it (see sourceNetwork), keyed by the server secret, so no address is kept. */
export function sourceOf(deps: AppDependencies, c: Context): string {
  return secretOf(deps).digest("client-address", sourceNetwork(clientAddress(c, deps.trustedProxyHops ?? 0)));
}

/** Middleware of a canonical read: keyed when X-API-Key is sent, anonymous otherwise. */
export const canonicalReadAccess =
  (deps: AppDependencies): MiddlewareHandler =>
  (c, next) => {
    const rawKey = c.req.header(API_KEY_HEADER);
    if (rawKey === undefined && looksLikeApiKey(c.req.header("Authorization"))) throw keyInAuthorization();
    return rawKey === undefined ? anonymous(deps, c, next, true) : keyed(deps, c, next, rawKey);
  };

/**
 * Middleware of a public operation that reads on a client's behalf (query evaluation): the
 * anonymous limits, whatever key is sent, since the operation takes no credential.
 */
export const anonymousAccess =
  (deps: AppDependencies): MiddlewareHandler =>
  (c, next) =>
    anonymous(deps, c, next, false);

/** Middleware of a consumer-only route: a valid key is required, a missing one is 401 too. */
export const requireConsumer =
  (deps: AppDependencies): MiddlewareHandler =>
  (c, next) => {
    const rawKey = c.req.header(API_KEY_HEADER);
    if (rawKey === undefined && looksLikeApiKey(c.req.header("Authorization"))) throw keyInAuthorization();
    return rawKey === undefined ? refuseKey(deps, c) : keyed(deps, c, next, rawKey);
  };

/** The consumer `requireConsumer` (or a keyed canonical read) admitted. */
export function consumerOf(c: Context): ActiveKey {
  const holder = c.get(CONSUMER as never) as ActiveKey | undefined;
  if (!holder) throw new Error(`no consumer: ${c.req.path} is not behind requireConsumer`);
  return holder;
}
