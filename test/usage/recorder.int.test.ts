import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionOptions } from "../../src/db/database.js";
import { UsageRecorder } from "../../src/usage/recorder.js";
import type { UsageRecord } from "../../src/usage/telemetry.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { memoryLogger } from "../support/logs.js";
import { aConsumerId, aRequest, storedUsage } from "../support/usage.js";

/** The counters `requests` should leave, computed here independently of the recorder. */
function expectedCounters(requests: UsageRecord[]) {
  const counters = new Map<
    string,
    { date: string; keyId: number; method: string; route: string; statusClass: string; requests: number }
  >();
  for (const r of requests) {
    const counter = {
      date: r.at.toISOString().slice(0, 10),
      keyId: r.keyId,
      method: r.method.toUpperCase(),
      route: r.routePath.replaceAll(":fixtureId", "{fixtureId}"),
      statusClass: `${String(r.status)[0]}xx`,
    };
    const key = JSON.stringify(counter);
    const held = counters.get(key);
    if (held) held.requests++;
    else counters.set(key, { ...counter, requests: 1 });
  }
  return [...counters.values()];
}

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`usage recorder on ${backend.name}`, () => {
    let db: TestDatabase;
    /** A second connection to the same database that notes every statement sent through it. */
    let watched: postgres.Sql;
    const statements: string[] = [];
    beforeAll(async () => {
      db = await backend.open();
      watched = postgres(db.url, {
        ...connectionOptions,
        max: 1,
        debug: (_connection, query) => statements.push(query),
      });
      await watched`select 1`; // connected, its type lookups done: only the test's statements follow
    });
    afterAll(async () => {
      await watched?.end();
      await db?.close();
    });

    const recorder = (options = {}) => {
      const { logger, lines } = memoryLogger();
      return { usage: new UsageRecorder(db.sql, logger, options), lines };
    };

    it("adds up many requests over keys, dates, methods, routes and statuses into one counter each", async () => {
      const consumerId = aConsumerId();
      const { usage } = recorder();
      const requests = Array.from({ length: 2_000 }, (_, i) => {
        const date = i % 3 === 0 ? "2026-03-01" : "2026-03-02";
        return aRequest(date, {
          consumerId,
          keyId: 1 + (i % 4),
          at: new Date(`${date}T${String(i % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:00Z`),
          method: i % 7 === 0 ? "head" : "GET",
          routePath: i % 2 ? "/api/v1/fixtures/:fixtureId" : "/api/v1/fixtures",
          status: [200, 304, 404, 429, 503][i % 5] as number,
        });
      });
      for (const request of requests) usage.record(request);
      await usage.flush();

      const stored = await storedUsage(db.sql, consumerId);
      expect(stored).toEqual(
        expect.arrayContaining(expectedCounters(requests).map((counter) => expect.objectContaining(counter))),
      );
      expect(stored).toHaveLength(expectedCounters(requests).length);
      expect(stored.reduce((sum, row) => sum + row.requests, 0)).toBe(requests.length);
    });

    it("writes a flush in one statement, adds each request once however often it flushes, and writes nothing when idle", async () => {
      const consumerId = aConsumerId();
      const { logger } = memoryLogger();
      const usage = new UsageRecorder(watched, logger);
      for (let keyId = 1; keyId <= 500; keyId++) usage.record(aRequest("2026-03-01", { consumerId, keyId }));

      statements.length = 0;
      await usage.flush();
      expect(statements.filter((s) => /insert into api_usage/.test(s))).toHaveLength(1);
      expect(statements).toHaveLength(1);

      await usage.flush();
      expect(statements).toHaveLength(1);

      for (let keyId = 1; keyId <= 500; keyId++) usage.record(aRequest("2026-03-01", { consumerId, keyId }));
      await Promise.all([usage.flush(), usage.flush()]);
      const stored = await storedUsage(db.sql, consumerId);
      expect(stored).toHaveLength(500);
      expect(stored.every((row) => row.requests === 2)).toBe(true);
    });

    it("includes every earlier request in a flush that starts while another is writing", async () => {
      const consumerId = aConsumerId();
      const { usage } = recorder();
      usage.record(aRequest("2026-03-01", { consumerId }));
      const first = usage.flush();
      usage.record(aRequest("2026-03-01", { consumerId }));
      await usage.flush();
      expect((await storedUsage(db.sql, consumerId)).map((row) => row.requests)).toEqual([2]);
      await first;
    });

    it("keeps the counts of a failed flush for the next one", async () => {
      const consumerId = aConsumerId();
      const { usage, lines } = recorder();
      usage.record(aRequest("2026-03-01", { consumerId, status: 200 }));
      usage.record(aRequest("2026-03-01", { consumerId, status: 200 }));
      await db.sql`alter table api_usage rename to api_usage_away`;
      try {
        await usage.flush(); // fails: there is no table to write to
        usage.record(aRequest("2026-03-01", { consumerId, status: 200 }));
        usage.record(aRequest("2026-03-01", { consumerId, status: 500 }));
      } finally {
        await db.sql`alter table api_usage_away rename to api_usage`;
      }
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: "usage telemetry not written; kept for the next flush", counters: 1 }),
      );

      await usage.flush();
      expect((await storedUsage(db.sql, consumerId)).map((row) => [row.statusClass, row.requests])).toEqual([
        ["2xx", 3],
        ["5xx", 1],
      ]);
    });

    it("holds at most maxCounters counters between flushes, and logs how many requests it dropped", async () => {
      const consumerId = aConsumerId();
      const { usage, lines } = recorder({ maxCounters: 2 });
      for (const keyId of [1, 2, 1, 3, 3, 2, 4]) usage.record(aRequest("2026-03-01", { consumerId, keyId }));
      await usage.flush();

      expect((await storedUsage(db.sql, consumerId)).map((row) => [row.keyId, row.requests])).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(lines).toContainEqual(expect.objectContaining({ droppedRequests: 3, maxCounters: 2 }));

      usage.record(aRequest("2026-03-01", { consumerId, keyId: 3 }));
      await usage.flush();
      expect((await storedUsage(db.sql, consumerId)).map((row) => row.keyId)).toEqual([1, 2, 3]);
    });

    it("flushes on its timer once started, and what is left on close", async () => {
      const consumerId = aConsumerId();
      const { usage } = recorder({ flushEveryMs: 20 });
      usage.start();
      usage.record(aRequest("2026-03-01", { consumerId }));
      await expect.poll(async () => (await storedUsage(db.sql, consumerId)).length, { timeout: 5_000 }).toBe(1);

      usage.record(aRequest("2026-03-01", { consumerId }));
      await usage.close();
      expect((await storedUsage(db.sql, consumerId)).map((row) => row.requests)).toEqual([2]);
    });
  });
}
