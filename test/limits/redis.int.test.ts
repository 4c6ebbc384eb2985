import { createServer, type Socket } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Admission, admit as admitAll, type Limit } from "../../src/limits/fixed-window.js";
import { openWindowCounter } from "../../src/limits/open.js";
import { EXPIRY_GRACE_MS, redisWindowCounter } from "../../src/limits/redis.js";
import {
  LimitUnavailable,
  type WindowCount,
  type WindowCounter,
  windowId,
  windowStart,
} from "../../src/limits/window-counter.js";
import { dropKeys, uniquePrefix } from "./redis-keys.js";

/** One limit's admission. */
const admit = async (counter: WindowCounter, key: string, limit: Limit, now: number) =>
  (await admitAll(counter, [{ key, ...limit }], now))[0] as Admission;

/** What only the Redis counter does: share windows between instances, expire them, fail closed. */
const REDIS_URL = process.env.REDIS_URL;
const MINUTE = 60_000;

describe.skipIf(!REDIS_URL)("Redis counter against the real Redis (needs REDIS_URL)", () => {
  const prefix = uniquePrefix();
  const counters: WindowCounter[] = [];
  let redis: Redis;
  const open = () => {
    const counter = redisWindowCounter(REDIS_URL as string, { prefix });
    counters.push(counter);
    return counter;
  };
  beforeAll(() => {
    redis = new Redis(REDIS_URL as string);
  });
  afterAll(async () => {
    await Promise.all(counters.map((c) => c.close()));
    redis?.disconnect();
    await dropKeys(REDIS_URL as string, prefix);
  });

  it("shares one limit between two instances", async () => {
    const [a, b] = [open(), open()];
    const limit = { limit: 30, windowMs: MINUTE };
    const now = Date.UTC(2026, 0, 1, 12, 0, 30);
    const admissions = await Promise.all(
      Array.from({ length: 30 }, (_, i) => admit(i % 2 === 0 ? a : b, "account:shared", limit, now)),
    );
    expect(admissions.every((x) => x.allowed)).toBe(true);
    expect((await admit(a, "account:shared", limit, now)).allowed).toBe(false);
    expect((await admit(b, "account:shared", limit, now)).allowed).toBe(false);
  });

  it("gives a window's key an expiry of the rest of the window plus the grace, set by its first hit", async () => {
    const counter = open();
    const now = Date.now();
    const [{ resetAt }] = (await counter.hit([{ key: "account:ttl", windowMs: MINUTE, limit: 30 }], now)) as [
      WindowCount,
    ];
    const key = `${prefix}:${windowId("account:ttl", MINUTE, windowStart(now, MINUTE))}`;
    const first = await redis.pttl(key);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(resetAt - now + EXPIRY_GRACE_MS);
    expect(first).toBeLessThanOrEqual(MINUTE + EXPIRY_GRACE_MS);

    await counter.hit([{ key: "account:ttl", windowMs: MINUTE, limit: 30 }], now - 10_000); // a lagging clock would ask for a later expiry
    expect(await redis.pttl(key)).toBeLessThanOrEqual(first);
  });

  it("gives the keys a batch of hits creates an expiry too", async () => {
    const counter = open();
    const now = Date.now();
    const windows = [
      { key: "consumer:batch", windowMs: MINUTE, limit: 30 },
      { key: "quota:batch", windowMs: 86_400_000, limit: 1000 },
    ];
    const answers = await Promise.all(Array.from({ length: 3 }, () => counter.hit(windows, now)));
    expect(answers.map((counts) => counts.map((c) => c.count))).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    for (const { key, windowMs } of windows) {
      const stored = `${prefix}:${windowId(key, windowMs, windowStart(now, windowMs))}`;
      expect(await redis.get(stored)).toBe("3");
      expect(await redis.pttl(stored)).toBeGreaterThan(0);
    }
  });

  it("refuses the hits still waiting when the counter is closed", async () => {
    const counter = open();
    const waiting = admit(counter, "account:closing", { limit: 30, windowMs: MINUTE }, Date.now());
    await counter.close();
    await expect(waiting).rejects.toBeInstanceOf(LimitUnavailable);
  });

  it("drops a window's key once the window and its grace are over", async () => {
    const counter = open();
    const windowMs = 200;
    const now = Date.now();
    const [{ resetAt }] = (await counter.hit([{ key: "account:gone", windowMs, limit: 30 }], now)) as [WindowCount];
    const key = `${prefix}:${windowId("account:gone", windowMs, windowStart(now, windowMs))}`;
    expect(await redis.exists(key)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, resetAt - now + EXPIRY_GRACE_MS + 100));
    expect(await redis.exists(key)).toBe(0);
  });
});

describe("Redis counter when Redis is out of order (fails closed)", () => {
  const refuses = async (counter: WindowCounter) => {
    const started = performance.now();
    const failure = await admit(counter, "account:a", { limit: 30, windowMs: MINUTE }, Date.now()).catch((e) => e);
    return { failure, ms: performance.now() - started };
  };

  it("throws LimitUnavailable quickly when nothing listens", async () => {
    const counter = redisWindowCounter("redis://127.0.0.1:1"); // nothing listens there
    try {
      const burst = await Promise.allSettled(
        Array.from({ length: 3 }, () => admit(counter, "account:a", { limit: 30, windowMs: MINUTE }, Date.now())),
      );
      for (const answer of burst)
        expect(answer).toMatchObject({ status: "rejected", reason: expect.any(LimitUnavailable) });
      for (let attempt = 0; attempt < 2; attempt++) {
        const { failure, ms } = await refuses(counter);
        expect(failure).toBeInstanceOf(LimitUnavailable);
        expect(failure.name).toBe("LimitUnavailable");
        expect(failure.cause).toBeInstanceOf(Error);
        expect(ms).toBeLessThan(1000);
      }
    } finally {
      await counter.close();
    }
  });

  it("throws LimitUnavailable after the command timeout when the server never answers", async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const counter = redisWindowCounter(`redis://127.0.0.1:${port}`, { commandTimeoutMs: 100 });
    try {
      const { failure, ms } = await refuses(counter);
      expect(failure).toBeInstanceOf(LimitUnavailable);
      expect(failure.cause.message).toMatch(/within 100 ms/);
      expect(ms).toBeGreaterThanOrEqual(90);
      expect(ms).toBeLessThan(1000);
    } finally {
      await counter.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe("openWindowCounter", () => {
  it("counts in Redis when a URL is given and in the process otherwise", async () => {
    const shared = openWindowCounter("redis://127.0.0.1:1");
    const local = openWindowCounter(undefined);
    expect([shared.kind, local.kind]).toEqual(["redis", "memory"]);
    await Promise.all([shared.close(), local.close()]);
  });
});
