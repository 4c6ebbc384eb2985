import { memoryCache } from "./memory.js";
import { redisCache } from "./redis.js";
import type { VersionedCache } from "./versioned-cache.js";

/** The cache the settings ask for: Redis, shared by every instance, when REDIS_URL is set; in-process otherwise. */
export const openVersionedCache = (redisUrl: string | undefined): VersionedCache =>
  redisUrl ? redisCache(redisUrl) : memoryCache();
