import { Redis } from "ioredis";
import { LimitUnavailable, type WindowCounter, windowId, windowStart } from "./window-counter.js";

/**
 * How long a window's key outlives the window: an instance whose clock lags this much behind
 * still finds the count instead of starting the window afresh.
 */
export const EXPIRY_GRACE_MS = 1000;

/**
 * Each window's INCR and expiry in one atomic step, so no key is ever left without one, and
 * the windows in turn, stopping after one goes over its limit (ARGV holds each window's
 * expiry, then its limit). The expiry is relative (PEXPIRE) and set by the first hit only:
 * it does not depend on Redis's clock agreeing with ours, and later hits from instances
 * with other clocks do not move it.
 */
const HIT_SCRIPT = `
local counts = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[2 * i - 1]) end
  counts[i] = count
  if count > tonumber(ARGV[2 * i]) then break end
end
return counts
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
    async hit(windows, now) {
      const ends = windows.map(({ key, windowMs }) => {
        const start = windowStart(now, windowMs);
        return { id: `${prefix}:${windowId(key, windowMs, start)}`, resetAt: start + windowMs };
      });
      const args = windows.flatMap(({ limit }, i) => [
        Math.ceil((ends[i] as { resetAt: number }).resetAt - now) + EXPIRY_GRACE_MS,
        limit,
      ]);
      let counts: unknown;
      try {
        counts = await client.eval(HIT_SCRIPT, windows.length, ...ends.map((e) => e.id), ...args);
      } catch (error) {
        throw new LimitUnavailable(error);
      }
      return (counts as number[]).map((count, i) => ({
        count: Number(count),
        resetAt: (ends[i] as { resetAt: number }).resetAt,
      }));
    },
    async close() {
      client.disconnect();
    },
  };
};
