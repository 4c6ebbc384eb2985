import type { Sql } from "../db/database.js";
import type { UsageWindow } from "./window.js";

/** One row of a usage read: a consumer's requests on one date, to one endpoint, in one status class. */
export type UsageRow = { date: string; endpoint: string; statusClass: string; requests: number };

/**
 * A consumer's usage over `window`, summed over its keys and grouped by date, endpoint
 * (method and route template, e.g. `GET /api/v1/fixtures/{fixtureId}`) and status class;
 * latest date first, then endpoint and status class ascending in byte order (collation "C",
 * so the order is the same on every database); at most `limit` rows.
 */
export async function usageRows(
  sql: Sql,
  query: UsageWindow & { consumerId: number; limit: number },
): Promise<UsageRow[]> {
  // float8 holds any count exactly up to 2^53; a bigint would arrive as a string.
  return sql<UsageRow[]>`
    select usage_date::text as date, method || ' ' || route as endpoint, status_class as "statusClass",
           sum(requests)::float8 as requests
    from api_usage
    where consumer_id = ${query.consumerId} and usage_date between ${query.from}::date and ${query.to}::date
    group by usage_date, method, route, status_class
    order by usage_date desc, (method || ' ' || route) collate "C", status_class collate "C"
    limit ${query.limit}`;
}
