import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ReadModelWatch } from "../../src/projections/watch.js";
import { expectError, expectUnauthorized } from "../support/account-api.js";
import { type ConsumerApi, header, limitHeaders, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";

/*
 * Keyed canonical reads: a valid X-API-Key selects its consumer's per-minute window (fixed
 * UTC minute, shared by all its keys) and daily quota (UTC day, of minute-admitted
 * requests); anything else in X-API-Key is 401 and never an anonymous read. The clock is
 * set (Date only) to land requests either side of a UTC minute and a UTC day.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

let api: ConsumerApi;
beforeAll(async () => {
  // Anonymous reads are limited too, tightly, so a key that fell back to anonymous would show.
  api = await openConsumerApi({ anonymousLimits: { perSourcePerMinute: 4, platformPerMinute: 4 } });
}, 60_000);
afterAll(() => api?.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Sets the clock (Date only: timers keep running) to `at`, epoch ms. */
const clockAt = (at: number) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
};
/** A UTC minute boundary a few minutes from now, so no earlier test shares its windows. */
let minutesAhead = 5;
const aMinuteEdge = () => (Math.floor(Date.now() / MINUTE) + minutesAhead++) * MINUTE;

const fixtures = "/api/v1/fixtures";
const ok = (res: ApiResponse) => expect(res.status, res.text).toBe(200);

describe("per-minute limit of a consumer", () => {
  it("admits the limit within a UTC minute, refuses the next with Retry-After, and admits again at the minute", async () => {
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 3 });
    const edge = aMinuteEdge();
    clockAt(edge - 2_500);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api.read(fixtures, { key: apiKey }));
    answers.forEach(ok);
    expect(answers.map((r) => header(r, "RateLimit-Remaining"))).toEqual(["2", "1", "0"]);
    expect(limitHeaders(answers[0] as ApiResponse)).toEqual({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "2",
      "ratelimit-reset": "3", // 2.5 s, rounded up
      "x-quota-limit": "10000",
      "x-quota-remaining": "9999",
      "x-quota-reset": String(Math.ceil(((Math.floor((edge - 2_500) / DAY) + 1) * DAY - (edge - 2_500)) / 1000)),
    });

    vi.setSystemTime(edge - 1);
    const refused = await api.read(fixtures, { key: apiKey });
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(limitHeaders(refused)).toEqual({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "1",
      "retry-after": "1",
    });

    vi.setSystemTime(edge);
    const next = await api.read(fixtures, { key: apiKey });
    ok(next);
    expect(header(next, "RateLimit-Remaining")).toBe("2");
    expect(header(next, "RateLimit-Reset")).toBe("60");
  });

  it("counts each consumer on its own", async () => {
    const [a, b] = [await api.aConsumer({ rateLimitPerMinute: 1 }), await api.aConsumer({ rateLimitPerMinute: 1 })];
    clockAt(aMinuteEdge() + 1_000);
    ok(await api.read(fixtures, { key: a.apiKey }));
    expectError(await api.read(fixtures, { key: a.apiKey }), 429, "RATE_LIMIT_EXCEEDED");
    ok(await api.read(fixtures, { key: b.apiKey }));
  });

  it("keeps one window and one quota for the consumer while its key is rotated mid-use", async () => {
    const first = await api.aConsumer({ rateLimitPerMinute: 5, dailyQuota: 100 });
    const start = aMinuteEdge() + 10_000;
    const rotateAndReturn = async () => {
      vi.useRealTimers(); // rotation is a command; its token and wait run on the real clock
      const second = await api.rotate(first.consumerId);
      clockAt(start + 1_000);
      return second;
    };
    clockAt(start);
    ok(await api.read(fixtures, { key: first.apiKey }));
    ok(await api.read(fixtures, { key: first.apiKey }));
    const second = await rotateAndReturn();
    expect(second.keyId).not.toBe(first.keyId);

    expectError(await api.read(fixtures, { key: first.apiKey }), 401, "API_KEY_UNAUTHORIZED");
    const after = await api.read(fixtures, { key: second.apiKey });
    ok(after);
    expect(limitHeaders(after)).toMatchObject({ "ratelimit-remaining": "2", "x-quota-remaining": "97" });
  });
});

describe("rotation while the keys are in use", () => {
  it("answers reads in flight 200 or refused, never lets a replaced key back in, and counts all in one window", async () => {
    const watch = new ReadModelWatch(api.db.sql);
    watch.follow(api.world.runner);
    await watch.start();
    try {
      const served = api.anotherInstance({ watch }); // key lookups memoised, as the server does
      const first = await api.aConsumer({ rateLimitPerMinute: 1000, dailyQuota: 10_000 });
      // All of it within one UTC minute, on the real clock.
      const untilNextMinute = MINUTE - (Date.now() % MINUTE);
      if (untilNextMinute < 5_000) await new Promise((resolve) => setTimeout(resolve, untilNextMinute + 50));
      const reads = (key: string) => Array.from({ length: 15 }, () => api.read(fixtures, { key, client: served }));
      // Three rotations at once, each racing reads with the key of the moment before it.
      const [during, rotations] = await Promise.all([
        Promise.all(reads(first.apiKey)),
        Promise.all([api.rotate(first.consumerId), api.rotate(first.consumerId), api.rotate(first.consumerId)]),
      ]);
      for (const res of during) expect([200, 401, 429], res.text).toContain(res.status);
      const admittedDuring = during.filter((res) => res.status === 200).length;

      // The rotations were serialised on the stream: keys 2, 3 and 4, and only the last is live.
      expect(rotations.map((r) => r.keyId).sort()).toEqual([2, 3, 4]);
      const live = rotations.find((r) => r.keyId === 4) as (typeof rotations)[number];
      const replaced = [first, ...rotations.filter((r) => r !== live)];
      const [stale, current] = await Promise.all([
        Promise.all(replaced.flatMap((r) => reads(r.apiKey))),
        Promise.all(reads(live.apiKey)),
      ]);
      // Replaced keys are refused (401, then 429 once the source has guessed too often).
      for (const res of stale) expect([401, 429], res.text).toContain(res.status);
      for (const res of current) ok(res);
      // Every admitted request of the consumer, whichever key, came out of one minute window.
      const remaining = current.map((res) => Number(header(res, "RateLimit-Remaining")));
      expect(new Set(remaining).size).toBe(current.length);
      expect(Math.min(...remaining)).toBe(1000 - admittedDuring - current.length);
    } finally {
      watch.close();
    }
  });
});

describe("daily quota of a consumer", () => {
  it("refuses past the quota with QUOTA_EXCEEDED and its headers until the next UTC day", async () => {
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 100, dailyQuota: 4 });
    const midnight = (Math.floor(Date.now() / DAY) + 2) * DAY;
    clockAt(midnight - 90_000);
    ok(await api.read(fixtures, { key: apiKey }));
    vi.setSystemTime(midnight - 30_000); // another minute: only the quota carries over
    for (const remaining of ["2", "1", "0"]) {
      const res = await api.read(fixtures, { key: apiKey });
      ok(res);
      expect(header(res, "X-Quota-Remaining")).toBe(remaining);
    }

    vi.setSystemTime(midnight - 1);
    const refused = await api.read(fixtures, { key: apiKey });
    expectError(refused, 429, "QUOTA_EXCEEDED");
    expect(limitHeaders(refused)).toEqual({
      "ratelimit-limit": "100",
      "ratelimit-remaining": "96",
      "ratelimit-reset": "1",
      "x-quota-limit": "4",
      "x-quota-remaining": "0",
      "x-quota-reset": "1",
      "retry-after": "1",
    });

    vi.setSystemTime(midnight);
    const tomorrow = await api.read(fixtures, { key: apiKey });
    ok(tomorrow);
    expect(limitHeaders(tomorrow)).toMatchObject({ "x-quota-remaining": "3", "x-quota-reset": "86400" });
  });

  it("spends no quota on a request the minute limit refused", async () => {
    const { apiKey } = await api.aConsumer({ rateLimitPerMinute: 2, dailyQuota: 10 });
    const edge = aMinuteEdge();
    clockAt(edge + 1_000);
    ok(await api.read(fixtures, { key: apiKey }));
    ok(await api.read(fixtures, { key: apiKey }));
    for (let i = 0; i < 3; i++) {
      const refused = await api.read(fixtures, { key: apiKey });
      expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
      expect(refused.headers.has("x-quota-remaining")).toBe(false);
    }
    vi.setSystemTime(edge + MINUTE + 1_000);
    const next = await api.read(fixtures, { key: apiKey });
    ok(next);
    expect(header(next, "X-Quota-Remaining")).toBe("7"); // 10 - 3 admitted; the 3 refused cost nothing
  });
});

describe("keys that are not valid", () => {
  const refusals = async (key: string) => {
    const res = await api.read(fixtures, { key });
    expectError(res, 401, "API_KEY_UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe("ApiKey");
    expect(limitHeaders(res)).toEqual({});
    return res.body;
  };

  it("answers a malformed, unknown or revoked key alike with 401 API_KEY_UNAUTHORIZED, never as anonymous", async () => {
    const revoked = await api.aConsumer();
    await api.revoke(revoked.consumerId, revoked.keyId);
    const unknown = `${revoked.apiKey.slice(0, -4)}AAAA`;
    clockAt(aMinuteEdge() + 1_000);
    const bodies = [
      await refusals("not-a-key"),
      await refusals(""),
      await refusals(unknown),
      await refusals(revoked.apiKey),
    ];
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(JSON.stringify(bodies[0])).not.toMatch(/revoked|unknown|consumer/i);
    // Refusals count per source like anonymous reads (4 a minute here), so guessing keys is
    // limited too ...
    const guessing = await api.read(fixtures, { key: `${unknown.slice(0, -1)}B` });
    expectError(guessing, 429, "RATE_LIMIT_EXCEEDED");
    expect(limitHeaders(guessing)).toMatchObject({ "ratelimit-limit": "4", "ratelimit-remaining": "0" });
    // ... but in a window of their own: the source's anonymous budget is untouched.
    for (let i = 0; i < 4; i++) ok(await api.read(fixtures));
  });

  it("refuses a revoked key at once where key lookups are memoised, as the server memoises them", async () => {
    const watch = new ReadModelWatch(api.db.sql);
    watch.follow(api.world.runner);
    await watch.start();
    try {
      const served = api.anotherInstance({ watch });
      const { consumerId, keyId, apiKey } = await api.aConsumer();
      ok(await api.read(fixtures, { key: apiKey, client: served }));
      ok(await api.read(fixtures, { key: apiKey, client: served }));
      await api.revoke(consumerId, keyId);
      expectError(await api.read(fixtures, { key: apiKey, client: served }), 401, "API_KEY_UNAUTHORIZED");
    } finally {
      watch.close();
    }
  });

  it("does not open an application route: a key is no bearer token", async () => {
    const { apiKey } = await api.aConsumer();
    const res = await api.api.post(
      "/api/v1/submissions",
      { fixtureId: api.fixtureId, schemaVersion: "1.0", events: [] },
      { headers: { "x-api-key": apiKey } },
    );
    expectUnauthorized(res);
    expectUnauthorized(await api.api.get("/api/v1/admin/api-consumers", { headers: { "x-api-key": apiKey } }));
  });

  it("never logs a key", async () => {
    const { apiKey } = await api.aConsumer();
    ok(await api.read(`${fixtures}?limit=1`, { key: apiKey }));
    await api.read(fixtures, { key: `${apiKey}x` });
    expect(api.logs().length).toBeGreaterThan(0);
    expect(JSON.stringify(api.logs())).not.toContain(apiKey);
  });
});
