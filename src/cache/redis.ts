import { Redis } from "ioredis";
import type { VersionedCache } from "./versioned-cache.js";

/**
 * The Redis adapter: entries shared by every API instance, `SET key value EX ttl`. It fails
 * fast: every command times out after 250 ms (also while queued for a connection) and is
 * retried over at most one reconnection, so a Redis outage costs a read at most that long
 * before it computes the value itself.
 */
export class RedisCache implements VersionedCache {
  readonly kind = "redis" as const;
  readonly client: Redis;

  constructor(url: string, options: { commandTimeoutMs?: number } = {}) {
    this.client = new Redis(url, {
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      // Keep reconnecting in the background, at most every 2 s; reads compute meanwhile.
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    // Errors surface on the commands; an unhandled 'error' event would crash the process.
    this.client.on("error", () => {});
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.client.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.client.set(key, value, "EX", ttlSeconds);
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

export const redisCache = (url: string, options?: { commandTimeoutMs?: number }) => new RedisCache(url, options);
