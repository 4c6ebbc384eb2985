import { createHash } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { findActiveKey } from "../consumers/queries.js";
import type { Admission } from "../limits/fixed-window.js";
import type { AppDependencies } from "./app.js";
import { ApiError } from "./errors.js";
import { countRequest, quotaHeaders, rateLimitExceeded, rateLimitHeaders, retryAfter } from "./rate-limits.js";

/*
 * The access classes of the cricket-resource reads (spec, Authentication):
 * - canonical reads: no X-API-Key is anonymous, within the per-source and platform limits;
 *   a valid key selects its consumer's limits, quota and telemetry; any other key is 401,
 *   never an anonymous fallback;
 * - consumer-only routes (/consumer/usage and the deprecated aliases): a valid key or 401.
 * Keys authorise nothing else: the application routes look at bearer tokens only.
 */

/** The consumer a valid key selected, with its policy. */
export type KeyHolder = { consumerId: number; keyId: number; rateLimitPerMinute: number; dailyQuota: number };

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const CONSUMER = "consumer";
export const API_KEY_HEADER = "X-API-Key";

const keyRefused = () => new ApiError("API_KEY_UNAUTHORIZED", "A valid API key is required in the X-API-Key header");

/**
 * The holder of the request's key. One message for a malformed, unknown or revoked key, so
 * a caller learns nothing about which. Memoised until the read models change (a revocation
 * is such a change) under a hash of the key, so no key is held; a plain SHA-256 suffices for
 * that (keys are 256-bit random) and costs a fraction of the keyed digest.
 */
async function holderOf(deps: AppDependencies, rawKey: string): Promise<KeyHolder> {
  const { sql, secret } = deps;
  if (!sql || !secret) throw new Error("keyed reads need the read models and the server secret");
  const lookup = () => findActiveKey(sql, secret, rawKey);
  const holder = deps.watch
    ? await deps.watch.value(`api-key:${createHash("sha256").update(rawKey).digest("base64url")}`, lookup)
    : await lookup();
  if (!holder) throw keyRefused();
  return holder;
}

/**
 * A keyed request: the consumer's minute window (shared by all its keys), then, only when
 * the minute admits it, its daily quota. Accepted answers carry both sets of headers; every
 * answer, refusals included, is counted in the consumer's usage telemetry.
 */
async function keyed(deps: AppDependencies, c: Context, next: () => Promise<void>, rawKey: string) {
  const holder = await holderOf(deps, rawKey);
  const now = Date.now();
  let status = 500;
  try {
    const [minute, quota] = await countRequest(
      deps,
      c,
      [
        { key: `consumer:${holder.consumerId}`, windowMs: MINUTE_MS, limit: holder.rateLimitPerMinute },
        { key: `quota:${holder.consumerId}`, windowMs: DAY_MS, limit: holder.dailyQuota },
      ],
      now,
    );
    if (!minute?.allowed) throw rateLimitExceeded(minute as Admission, MINUTE_MS, now);
    const headers = { ...rateLimitHeaders(minute, now), ...quotaHeaders(quota as Admission, now) };
    if (!quota?.allowed)
      throw new ApiError(
        "QUOTA_EXCEEDED",
        `The daily quota of ${holder.dailyQuota} requests is used up; it resets at the next UTC midnight`,
      ).withHeaders({ ...headers, ...retryAfter(quota as Admission) });
    c.set(CONSUMER as never, holder as never);
    // Set before the answer exists, so it is built with them (errors from the handler too).
    for (const [header, value] of Object.entries(headers)) c.header(header, value);
    await next();
    status = c.res.status;
  } catch (error) {
    if (error instanceof ApiError) status = error.status;
    throw error;
  } finally {
    deps.usage?.record({
      consumerId: holder.consumerId,
      keyId: holder.keyId,
      at: new Date(now),
      method: c.req.method,
      routePath: c.req.routePath,
      status,
    });
  }
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
 * Retry-After; nothing else about limits, and no telemetry.
 */
async function anonymous(deps: AppDependencies, c: Context, next: () => Promise<void>) {
  const { anonymousLimits, secret } = deps;
  if (!anonymousLimits) return next();
  if (!secret) throw new Error("anonymous limits need the server secret");
  const source = secret.digest("client-address", clientAddress(c, deps.trustedProxyHops ?? 0));
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
  if (refused) throw rateLimitExceeded(refused, MINUTE_MS, now);
  return next();
}

/** Middleware of a canonical read: keyed when X-API-Key is sent, anonymous otherwise. */
export const canonicalReadAccess =
  (deps: AppDependencies): MiddlewareHandler =>
  (c, next) => {
    const rawKey = c.req.header(API_KEY_HEADER);
    return rawKey === undefined ? anonymous(deps, c, next) : keyed(deps, c, next, rawKey);
  };

/** Middleware of a consumer-only route: a valid key is required, a missing one is 401 too. */
export const requireConsumer =
  (deps: AppDependencies): MiddlewareHandler =>
  (c, next) => {
    const rawKey = c.req.header(API_KEY_HEADER);
    if (rawKey === undefined) throw keyRefused();
    return keyed(deps, c, next, rawKey);
  };

/** The consumer `requireConsumer` (or a keyed canonical read) admitted. */
export function consumerOf(c: Context): KeyHolder {
  const holder = c.get(CONSUMER as never) as KeyHolder | undefined;
  if (!holder) throw new Error(`no consumer: ${c.req.path} is not behind requireConsumer`);
  return holder;
}
