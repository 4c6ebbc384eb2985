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
 * cache it fails fast (250 ms per command), but here a failure is LimitUnavailable: nothing
 * may be admitted uncounted.
 *
 * A request refused for want of Redis must not be counted later either (a 503 consumes no
 * quota), so no command is ever queued or resent: a hit waits (up to the timeout) for a ready
 * connection and only then sends its script. One that reached Redis but answered too late
 * still counts: Redis ran it, and nothing can tell.
 */
export const redisWindowCounter = (
  url: string,
  options: { commandTimeoutMs?: number; prefix?: string } = {},
): WindowCounter => {
  const prefix = options.prefix ?? "limit";
  const timeoutMs = options.commandTimeoutMs ?? 250;
  const client = new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    // Hits of the requests one turn of the event loop handles go out in one write.
    enableAutoPipelining: true,
    commandTimeout: timeoutMs,
    connectTimeout: 2000,
    // Keep reconnecting in the background, at most every 2 s; requests are refused meanwhile.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  }) as Redis & HitCommand;
  // Sent as EVALSHA (the script itself only when Redis does not hold it yet), not as its text.
  client.defineCommand("hitWindows", { lua: HIT_SCRIPT });
  // Errors surface on the commands; an unhandled 'error' event would crash the process.
  client.on("error", () => {});
  const ready = () => (client.status === "ready" ? undefined : readyWithin(client, timeoutMs));

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
        await ready();
        counts = await client.hitWindows(windows.length, ...ends.map((e) => e.id), ...args);
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

/** The script as a command of the client (`defineCommand`). */
type HitCommand = { hitWindows(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<unknown> };

/** Resolves once `client` is ready, rejects when it is not within `timeoutMs`. */
function readyWithin(client: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off("ready", onReady);
      reject(new Error(`Redis not ready within ${timeoutMs} ms (${client.status})`));
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    client.once("ready", onReady);
  });
}
