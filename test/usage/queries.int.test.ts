import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteExpiredUsage, scheduleUsageCleanup } from "../../src/usage/cleanup.js";
import { addDays } from "../../src/usage/dates.js";
import { type UsageKey, usageKey, usageRows } from "../../src/usage/queries.js";
import { UsageRecorder } from "../../src/usage/recorder.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { memoryLogger } from "../support/logs.js";
import { aConsumerId, aRequest, givenStoredUsage, storedUsage } from "../support/usage.js";

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`stored usage on ${backend.name}`, () => {
    let db: TestDatabase;
    let usage: UsageRecorder;
    beforeAll(async () => {
      db = await backend.open();
      usage = new UsageRecorder(db.sql, memoryLogger().logger);
    });
    afterAll(async () => db?.close());

    describe("usageRows", () => {
      it("sums over keys, latest date first, then endpoint and status class in byte order, within the window", async () => {
        const consumerId = aConsumerId();
        const other = aConsumerId();
        const requests = [
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/fixtures", keyId: 1 }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/fixtures", keyId: 2 }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/fixtures", keyId: 2, status: 404 }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/Fixtures" }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/fixtures/:fixtureId", status: 500 }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/fixtures/:fixtureId", status: 200 }),
          aRequest("2026-03-01", { consumerId, routePath: "/api/v1/consumer/usage", method: "GET" }),
          aRequest("2026-03-03", { consumerId, routePath: "/api/v1/fixtures", keyId: 3 }),
          aRequest("2026-02-28", { consumerId }), // before the window
          aRequest("2026-03-04", { consumerId }), // after it
          aRequest("2026-03-01", { consumerId: other }), // another consumer's
        ];
        for (const request of requests) usage.record(request);
        await usage.flush();

        const rows = await usageRows(db.sql, { consumerId, from: "2026-03-01", to: "2026-03-03", limit: 50 });
        expect(rows).toEqual([
          { date: "2026-03-03", endpoint: "GET /api/v1/fixtures", statusClass: "2xx", requests: 1 },
          { date: "2026-03-01", endpoint: "GET /api/v1/Fixtures", statusClass: "2xx", requests: 1 },
          { date: "2026-03-01", endpoint: "GET /api/v1/consumer/usage", statusClass: "2xx", requests: 1 },
          { date: "2026-03-01", endpoint: "GET /api/v1/fixtures", statusClass: "2xx", requests: 2 },
          { date: "2026-03-01", endpoint: "GET /api/v1/fixtures", statusClass: "4xx", requests: 1 },
          { date: "2026-03-01", endpoint: "GET /api/v1/fixtures/{fixtureId}", statusClass: "2xx", requests: 1 },
          { date: "2026-03-01", endpoint: "GET /api/v1/fixtures/{fixtureId}", statusClass: "5xx", requests: 1 },
        ]);
      });

      it("returns at most `limit` rows, the first in that order", async () => {
        const consumerId = aConsumerId();
        for (const date of ["2026-03-01", "2026-03-02", "2026-03-03"])
          for (const status of [200, 404]) usage.record(aRequest(date, { consumerId, status }));
        await usage.flush();

        const rows = await usageRows(db.sql, { consumerId, from: "2026-03-01", to: "2026-03-03", limit: 3 });
        expect(rows.map((row) => [row.date, row.statusClass])).toEqual([
          ["2026-03-03", "2xx"],
          ["2026-03-03", "4xx"],
          ["2026-03-02", "2xx"],
        ]);
      });
    });

    describe("usageRows after a key", () => {
      it("continues strictly after it, across endpoints and dates, until every row was read once", async () => {
        const consumerId = aConsumerId();
        for (const date of ["2026-03-01", "2026-03-02"])
          for (const routePath of ["/api/v1/fixtures", "/api/v1/Fixtures", "/api/v1/competitions"])
            for (const status of [200, 404]) usage.record(aRequest(date, { consumerId, routePath, status }));
        await usage.flush();
        const window = { consumerId, from: "2026-03-01", to: "2026-03-02" };
        const all = await usageRows(db.sql, { ...window, limit: 50 });
        expect(all).toHaveLength(12);

        const paged: typeof all = [];
        let after: UsageKey | undefined;
        for (;;) {
          const page = await usageRows(db.sql, { ...window, limit: 5, after });
          paged.push(...page);
          if (page.length < 5) break;
          after = usageKey(page.at(-1) as (typeof page)[number]);
        }
        expect(paged).toEqual(all);
      });
    });

    describe("retention", () => {
      const now = new Date("2026-03-31T23:59:00Z");
      const today = "2026-03-31";

      it("deletes exactly the dates before the latest 31, today's included", async () => {
        const consumerId = aConsumerId();
        await givenStoredUsage(
          db.sql,
          Array.from({ length: 41 }, (_, daysAgo) => ({ date: addDays(today, -daysAgo), consumerId })),
        );
        expect(await deleteExpiredUsage(db.sql, now)).toBeGreaterThanOrEqual(10);

        const kept = (await storedUsage(db.sql, consumerId)).map((row) => row.date);
        expect(kept).toHaveLength(31);
        expect(kept[0]).toBe("2026-03-01");
        expect(kept.at(-1)).toBe(today);
      });

      it("runs at once when scheduled, then on its interval until stopped", async () => {
        const consumerId = aConsumerId();
        await givenStoredUsage(db.sql, [
          { date: "2000-01-01", consumerId },
          { date: addDays(today, 1000), consumerId },
        ]);
        const stop = scheduleUsageCleanup(db.sql, memoryLogger().logger, 20);
        try {
          await expect
            .poll(async () => (await storedUsage(db.sql, consumerId)).map((row) => row.date), { timeout: 5_000 })
            .toEqual([addDays(today, 1000)]);
          await givenStoredUsage(db.sql, [{ date: "2000-01-02", consumerId }]);
          await expect.poll(async () => (await storedUsage(db.sql, consumerId)).length, { timeout: 5_000 }).toBe(1);
        } finally {
          stop();
        }
      });
    });
  });
}
