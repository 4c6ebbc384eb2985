import type { Logger } from "../http/logging.js";

/**
 * A cache of serialised representations whose keys carry the version of what they were
 * computed from. Nothing is ever invalidated: a new accepted change raises the version, so
 * readers build a new key and the old entry is unreachable until it expires.
 *
 * Adapters: in-process (`memoryCache`) and Redis (`redisCache`, when REDIS_URL is set), so
 * API replicas share entries. A cache is an optimisation only: `readThrough` computes the
 * value whenever the cache fails.
 */
export interface VersionedCache {
  readonly kind: "memory" | "redis";
  /** The value stored under `key`, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlSeconds`. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
}

/** How long a fixture statistic stays cached (the specification's 60 seconds). */
export const STATISTICS_TTL_SECONDS = 60;

export type CacheOutcome = "hit" | "miss" | "bypass";

/**
 * The cached value of `key`, or `compute()`'s, stored for `ttlSeconds` (or the time the
 * value itself calls for) when `compute` says it is what the key names (`cacheable`; a value
 * read after the version moved on is served but not stored). A failing cache (Redis down, timed out) never fails the read: the
 * failure is logged at warn and the value computed.
 */
export async function readThrough(
  cache: VersionedCache,
  key: string,
  ttlSeconds: number,
  compute: () => Promise<{ value: string; cacheable: boolean; ttlSeconds?: number }>,
  logger: Logger,
): Promise<{ value: string; outcome: CacheOutcome }> {
  let cached: string | undefined;
  let healthy = true;
  try {
    cached = await cache.get(key);
  } catch (err) {
    healthy = false;
    logger.warn({ err, cache: cache.kind, key }, "cache read failed; computing the value");
  }
  if (cached !== undefined) return { value: cached, outcome: "hit" };
  const { value, cacheable, ttlSeconds: ttlOfValue } = await compute();
  if (healthy && cacheable) {
    try {
      await cache.set(key, value, ttlOfValue ?? ttlSeconds);
    } catch (err) {
      logger.warn({ err, cache: cache.kind, key }, "cache write failed; serving the computed value");
    }
  }
  return { value, outcome: healthy ? "miss" : "bypass" };
}
