import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Admission, admit as admitAll, type Limit } from "../../src/limits/fixed-window.js";
import { memoryWindowCounter } from "../../src/limits/memory.js";
import { redisWindowCounter } from "../../src/limits/redis.js";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import { dropKeys, uniquePrefix } from "./redis-keys.js";

/** One limit's admission. */
const admit = async (counter: WindowCounter, key: string, limit: Limit, now: number) =>
  (await admitAll(counter, [{ key, ...limit }], now))[0] as Admission;

/**
 * The behaviour of a fixed-window limit, the same over each counter: in-process, and the real
 * Redis of REDIS_URL (never a mock).
 */
const REDIS_URL = process.env.REDIS_URL;
const prefix = uniquePrefix();

const MINUTE = 60_000;
const DAY = 86_400_000;
const submissions = { limit: 30, windowMs: MINUTE };

describe.each([
  { adapter: "in-process", open: (): WindowCounter => memoryWindowCounter(), needsRedis: false },
  {
    adapter: "Redis (needs REDIS_URL)",
    open: (): WindowCounter => redisWindowCounter(REDIS_URL as string, { prefix }),
    needsRedis: true,
  },
])("$adapter counter", ({ open, needsRedis }) => {
  describe.skipIf(needsRedis && !REDIS_URL)("fixed windows", () => {
    let counter: WindowCounter;
    beforeAll(() => {
      counter = open();
    });
    afterAll(async () => {
      await counter?.close();
      if (needsRedis) await dropKeys(REDIS_URL as string, prefix);
    });

    /** `n` requests at `now`, the admissions in order. */
    const burst = (key: string, n: number, now: number, limit = submissions) =>
      Promise.all(Array.from({ length: n }, () => admit(counter, key, limit, now)));

    it("admits the 30th request of a minute and refuses the 31st until the next UTC minute", async () => {
      const now = Date.UTC(2026, 0, 1, 12, 0, 30, 250);
      const admissions = await burst("account:a", 30, now);
      expect(admissions.every((a) => a.allowed)).toBe(true);
      expect(admissions.map((a) => a.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));

      const refused = await admit(counter, "account:a", submissions, now);
      expect(refused).toEqual({
        allowed: false,
        limit: 30,
        remaining: 0,
        resetAt: Date.UTC(2026, 0, 1, 12, 1),
        retryAfterSeconds: 30, // 29.75 s, rounded up
      });
    });

    it("keeps refusing while hammered and admits again at the first millisecond of the next minute", async () => {
      const lastMs = Date.UTC(2026, 0, 1, 12, 0, 59, 999);
      await burst("account:b", 30, Date.UTC(2026, 0, 1, 12, 0, 0));
      for (const refused of await burst("account:b", 20, lastMs)) {
        expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
      }

      const next = await admit(counter, "account:b", submissions, Date.UTC(2026, 0, 1, 12, 1, 0, 0));
      expect(next).toEqual({
        allowed: true,
        limit: 30,
        remaining: 29,
        resetAt: Date.UTC(2026, 0, 1, 12, 2),
        retryAfterSeconds: 60,
      });
    });

    it("counts each key on its own", async () => {
      const now = Date.UTC(2026, 0, 1, 12, 0, 10);
      await burst("account:c", 31, now);
      expect((await admit(counter, "account:c", submissions, now)).allowed).toBe(false);
      expect(await admit(counter, "account:d", submissions, now)).toMatchObject({ allowed: true, remaining: 29 });
    });

    it("resets a daily quota at UTC midnight", async () => {
      const quota = { limit: 3, windowMs: DAY };
      const morning = await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 1, 0, 0, 0, 0));
      expect(morning).toMatchObject({ allowed: true, remaining: 2, resetAt: Date.UTC(2026, 0, 2) });
      await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 1, 9));
      await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 1, 18));

      const evening = await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 1, 22, 30));
      expect(evening).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 90 * 60 });
      expect((await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 1, 23, 59, 59, 999))).allowed).toBe(false);

      const midnight = await admit(counter, "consumer:e", quota, Date.UTC(2026, 0, 2));
      expect(midnight).toMatchObject({ allowed: true, remaining: 2, resetAt: Date.UTC(2026, 0, 3) });
    });

    it("counts limits in turn and stops at the first that refuses: a refused minute costs no quota", async () => {
      const now = Date.UTC(2026, 0, 4, 9, 30);
      const limits = [
        { key: "consumer:g", limit: 2, windowMs: MINUTE },
        { key: "quota:g", limit: 10, windowMs: DAY },
      ];
      const first = await admitAll(counter, limits, now);
      expect(first.map((a) => [a.allowed, a.remaining])).toEqual([
        [true, 1],
        [true, 9],
      ]);
      await admitAll(counter, limits, now);
      for (let i = 0; i < 3; i++) {
        const refused = await admitAll(counter, limits, now);
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({ allowed: false, remaining: 0 });
      }
      const nextMinute = await admitAll(counter, limits, now + MINUTE);
      expect(nextMinute.map((a) => a.remaining)).toEqual([1, 7]); // 3 admitted of 10; the 3 refused cost nothing
    });

    it("counts a burst over two limits in one go as it would one by one: refused minutes cost no quota", async () => {
      const now = Date.UTC(2026, 0, 5, 9, 30);
      const limits = [
        { key: "consumer:h", limit: 2, windowMs: MINUTE },
        { key: "quota:h", limit: 10, windowMs: DAY },
      ];
      const burst = await Promise.all(Array.from({ length: 5 }, () => admitAll(counter, limits, now)));
      const seen = burst.map((admissions) => admissions.map((a) => [a.allowed, a.remaining]));
      expect(seen.sort()).toEqual([
        [[false, 0]],
        [[false, 0]],
        [[false, 0]],
        [
          [true, 0],
          [true, 8],
        ],
        [
          [true, 1],
          [true, 9],
        ],
      ]);
      const nextMinute = await admitAll(counter, limits, now + MINUTE);
      expect(nextMinute.map((a) => a.remaining)).toEqual([1, 7]);
    });

    it("answers the hits one turn brings together", async () => {
      const now = Date.UTC(2026, 0, 6, 9, 30);
      const settled: string[] = [];
      const hit = (name: string) => admit(counter, "consumer:i", submissions, now).then(() => settled.push(name));
      const first = hit("first");
      const second = hit("second");
      expect(settled).toEqual([]);
      // When the first answer arrives, the second has come with it: the in-process counter yields once per turn, not once per hit.
      await first;
      expect(settled).toEqual(["first", "second"]);
      await second;
    });

    it("keeps a key's per-minute and per-day counts apart, even in the minute both start", async () => {
      const midnight = Date.UTC(2026, 0, 3);
      const perMinute = { limit: 2, windowMs: MINUTE };
      const perDay = { limit: 5, windowMs: DAY };
      await burst("consumer:f", 2, midnight, perMinute);
      expect(await admit(counter, "consumer:f", perDay, midnight)).toMatchObject({ allowed: true, remaining: 4 });
      expect(await admit(counter, "consumer:f", perMinute, midnight)).toMatchObject({ allowed: false, remaining: 0 });
    });
  });
});
