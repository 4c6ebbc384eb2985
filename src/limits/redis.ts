import { Redis } from "ioredis";
import { within } from "../deadline.js";
import { countsOfEach } from "./batched-hits.js";
import { LimitUnavailable, type WindowCount, type WindowCounter, windowId, windowStart } from "./window-counter.js";

/**
 * How long a window's key outlives the window: an instance whose clock lags this much behind
 * still finds the count instead of starting the window afresh.
 */
export const EXPIRY_GRACE_MS = 1000;

/**
 * A batch of hits (see batched-hits.ts) in one atomic step: each window's INCRBY by the hits
 * that reach it and its expiry, so no key is ever left without one; the hits a window admits
 * go on to the next, and the script stops at a window that admits none of them. ARGV holds
 * each window's expiry and limit, then the number of hits. The expiry is relative (PEXPIRE)
 * and set by the batch that creates the key: it does not depend on Redis's clock agreeing
 * with ours, and later hits from instances with other clocks do not move it.
 */
const HIT_SCRIPT = `
local reaching = tonumber(ARGV[#ARGV])
local counts = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCRBY', key, reaching)
  if count == reaching then redis.call('PEXPIRE', key, ARGV[2 * i - 1]) end
  counts[i] = count
  reaching = math.max(0, math.min(reaching, tonumber(ARGV[2 * i]) - (count - reaching)))
  if reaching == 0 then break end
end
return counts
`;

/**
 * The Redis adapter: windows shared by every API instance. Hits on the same windows within
 * one turn of the event loop (a consumer's parallel requests, a client's anonymous ones) go
 * to Redis as one batch, one script run for them all, answered when it returns. Like the
 * cache it fails fast (250 ms from a batch's start to its answer, however many batches wait
 * on a hung server), but here a failure is LimitUnavailable: nothing may be admitted uncounted.
 *
 * A request refused for want of Redis must not be counted later either (a 503 consumes no
 * quota), so no command is ever queued or resent: a batch waits (up to the timeout) for a
 * ready connection and only then sends its script. One that reached Redis but answered too
 * late still counts: Redis ran it, and nothing can tell.
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
    // The batches of one turn go out in one write.
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

  /** This turn's batches, by the windows (and limits) they count. */
  let batches = new Map<string, Batch>();

  async function send({ keys, args, limits, resetAts, waiters }: Batch) {
    try {
      // ioredis's own command timeout starts when a command is written, and with
      // auto-pipelining a batch is written only once the pipeline before it has answered:
      // against a hung server each batch would wait out the previous one's timeout as well.
      const totals = await within(timeoutMs, "Redis", async (late) => {
        await ready();
        if (late()) throw new Error("Redis became ready after the deadline; not sent");
        return client.hitWindows(keys.length, ...keys, ...args, waiters.length);
      });
      const each = countsOfEach((totals as number[]).map(Number), limits, waiters.length);
      for (const [hit, waiter] of waiters.entries()) {
        waiter.resolve((each[hit] as number[]).map((count, i) => ({ count, resetAt: resetAts[i] as number })));
      }
    } catch (error) {
      const unavailable = new LimitUnavailable(error);
      for (const waiter of waiters) waiter.reject(unavailable);
    }
  }

  function sendBatches() {
    const sending = batches;
    batches = new Map();
    for (const batch of sending.values()) void send(batch);
  }

  return {
    kind: "redis",
    hit(windows, now) {
      const keys: string[] = [];
      const resetAts: number[] = [];
      for (const { key, windowMs } of windows) {
        const start = windowStart(now, windowMs);
        keys.push(`${prefix}:${windowId(key, windowMs, start)}`);
        resetAts.push(start + windowMs);
      }
      const limits = windows.map((w) => w.limit);
      const id = `${keys.join("\n")}\n${limits.join("\n")}`;
      let batch = batches.get(id);
      if (!batch) {
        if (batches.size === 0) setImmediate(sendBatches);
        const args = windows.flatMap(({ limit }, i) => [
          Math.ceil((resetAts[i] as number) - now) + EXPIRY_GRACE_MS,
          limit,
        ]);
        batch = { keys, args, limits, resetAts, waiters: [] };
        batches.set(id, batch);
      }
      const waiters = batch.waiters;
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    ping: () =>
      within(timeoutMs, "Redis", async () => {
        await ready();
        await client.ping();
      }),
    async close() {
      client.disconnect();
    },
  };
};

/** Hits on the same windows waiting for this turn to end, in the order they came. */
type Batch = {
  keys: string[];
  /** The script's ARGV but the last: each window's expiry (as the batch's first hit computed it) and limit. */
  args: number[];
  limits: number[];
  resetAts: number[];
  waiters: { resolve: (counts: WindowCount[]) => void; reject: (error: unknown) => void }[];
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
