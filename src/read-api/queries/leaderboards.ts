import type { Sql } from "../../db/database.js";
import type { LeaderboardScope, Metric } from "../../statistics/leaderboards.js";

/**
 * The first `limit` rows of the table as the statistics projector ranked and published them
 * (`leaderboard`, see `leaderboardEntries`), as the JSON text of the `data` array: one key
 * lookup and an array slice, so a read neither builds, parses nor re-serialises a row. The
 * name is the participant's registered one, which the projector keeps (other spellings never
 * replace it).
 */
export async function leaderboardRowsJson(
  sql: Sql,
  metric: Metric,
  scope: LeaderboardScope,
  scopeId: string,
  limit: number,
): Promise<string> {
  const [row] = await sql<{ data: string }[]>`
    select '[' || array_to_string(rows[1:${limit}], ',') || ']' as data
    from leaderboard where scope_type = ${scope} and scope_id = ${scopeId} and metric = ${metric}`;
  return row?.data ?? "[]";
}

/**
 * The version of a season's or competition's tables: the transaction that last ranked them,
 * which only a change to that scope's aggregates moves; "none" before it has a table, and
 * undefined while the tables served are of a generation that kept no version (statistics
 * before v6, while its rebuild runs): read through the row as JSON so that the column may
 * be missing.
 */
export async function leaderboardVersion(
  sql: Sql,
  scope: LeaderboardScope,
  scopeId: string,
): Promise<string | undefined> {
  const [row] = await sql<{ version: string | null }[]>`
    select to_jsonb(l) ->> 'version' as version from leaderboard l
    where scope_type = ${scope} and scope_id = ${scopeId} limit 1`;
  return row ? (row.version ?? undefined) : "none";
}
