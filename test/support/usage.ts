import { randomInt } from "node:crypto";
import type { Sql } from "../../src/db/database.js";
import type { UsageRecord } from "../../src/usage/telemetry.js";

/** A consumer id no other test of the run uses, so suites can share a database. */
export const aConsumerId = () => randomInt(1, 2 ** 31 - 1);

/** An answered keyed request at noon UTC on `date`; override what the test cares about. */
export const aRequest = (date: string, overrides: Partial<UsageRecord> = {}): UsageRecord => ({
  consumerId: 1,
  keyId: 1,
  at: new Date(`${date}T12:00:00Z`),
  method: "GET",
  routePath: "/api/v1/fixtures/:fixtureId",
  status: 200,
  ...overrides,
});

/** The stored counters of `consumerId`, in key order: what the flushes wrote. */
export const storedUsage = (sql: Sql, consumerId: number) =>
  sql<{ date: string; keyId: number; method: string; route: string; statusClass: string; requests: number }[]>`
    select usage_date::text as date, key_id as "keyId", method, route, status_class as "statusClass",
           requests::float8 as requests
    from api_usage where consumer_id = ${consumerId}
    order by usage_date, key_id, method, route, status_class`;

/** Inserts stored counters directly, as flushes of days past would have left them. */
export async function givenStoredUsage(
  sql: Sql,
  rows: { date: string; consumerId: number; keyId?: number; route?: string; requests?: number }[],
) {
  const stored = rows.map(({ date, consumerId, keyId = 1, route = "/api/v1/fixtures", requests = 1 }) => ({
    usage_date: date,
    consumer_id: consumerId,
    key_id: keyId,
    method: "GET",
    route,
    status_class: "2xx",
    requests,
  }));
  await sql`insert into api_usage ${sql(stored)}`;
}
