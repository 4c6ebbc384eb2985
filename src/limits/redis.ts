import { Redis } from "ioredis";
import { LimitUnavailable, type WindowCounter, windowId, windowStart } from "./window-counter.js";

/**
 * How long a window's key outlives the window: an instance whose clock lags this much behind
 * still finds the count instead of starting the window afresh.
 */
export const EXPIRY_GRACE_MS = 1000;

/**
 * INCR and the expiry in one atomic step, so no key is ever left without one. The expiry is
 * relative (PEXPIRE) and set by the first hit only: it does not depend on Redis's clock
 * agreeing with ours, and later hits from instances with other clocks do not move it.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

/**
 * The Redis adapter: windows shared by every API instance, one round trip per hit. Like the
 * cache it fails fast (250 ms per command, also while queued for a connection, over at most
 * one reconnection), but here a failure is LimitUnavailable: nothing may be admitted uncounted.
 */
export const redisWindowCounter = (
  url: string,
  options: { commandTimeoutMs?: number; prefix?: string } = {},
): WindowCounter => {
  const prefix = options.prefix ?? "limit";
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 2000,
    // Keep reconnecting in the background, at most every 2 s; requests are refused meanwhile.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Errors surface on the commands; an unhandled 'error' event would crash the process.
  client.on("error", () => {});

  return {
    kind: "redis",
    async hit(key, windowMs, now) {
      const start = windowStart(now, windowMs);
      const resetAt = start + windowMs;
      const ttlMs = Math.ceil(resetAt - now) + EXPIRY_GRACE_MS;
      try {
        const count = await client.eval(HIT_SCRIPT, 1, `${prefix}:${windowId(key, windowMs, start)}`, ttlMs);
        return { count: Number(count), resetAt };
      } catch (error) {
        throw new LimitUnavailable(error);
      }
    },
    async close() {
      client.disconnect();
    },
  };
};
