import type { Sql } from "../db/database.js";
import type { UsageWindow } from "./window.js";

/** One row of a usage read: a consumer's requests on one date, to one endpoint, in one status class. */
export type UsageRow = { date: string; endpoint: string; statusClass: string; requests: number };

/** Where a row stands in the order of a usage read: its date, endpoint and status class. */
export type UsageKey = [date: string, endpoint: string, statusClass: string];

export const usageKey = (row: UsageRow): UsageKey => [row.date, row.endpoint, row.statusClass];

/**
 * A consumer's usage over `window`, summed over its keys and grouped by date, endpoint
 * (method and route template, e.g. `GET /api/v1/fixtures/{fixtureId}`) and status class;
 * latest date first, then endpoint and status class ascending in byte order (collation "C",
 * so the order is the same on every database); at most `limit` rows, strictly after `after`.
 */
export async function usageRows(
  sql: Sql,
  query: UsageWindow & { consumerId: number; limit: number; after?: UsageKey | undefined },
): Promise<UsageRow[]> {
  const afterKey = query.after === undefined ? sql`true` : after(sql, query.after);
  // float8 holds any count exactly up to 2^53; a bigint would arrive as a string.
  return sql<UsageRow[]>`
    select * from (
      select usage_date::text as date, method || ' ' || route as endpoint, status_class as "statusClass",
             sum(requests)::float8 as requests
      from api_usage
      where consumer_id = ${query.consumerId} and usage_date between ${query.from}::date and ${query.to}::date
      group by usage_date, method, route, status_class
    ) r
    where ${afterKey}
    order by r.date desc, r.endpoint collate "C", r."statusClass" collate "C"
    limit ${query.limit}`;
}

/** Rows after `key` in the read's order: an earlier date, or the same date and a later endpoint or class. */
const after = (sql: Sql, [date, endpoint, statusClass]: UsageKey) =>
  sql`(r.date < ${date} or (r.date = ${date} and (r.endpoint collate "C" > ${endpoint}
        or (r.endpoint = ${endpoint} and r."statusClass" collate "C" > ${statusClass}))))`;
