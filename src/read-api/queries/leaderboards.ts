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
 * Where the statistics read model stands: its active generation and checkpoint. Every change
 * to an aggregate moves it, so a leaderboard cached under it can never be stale.
 */
export async function statisticsCheckpoint(sql: Sql): Promise<string> {
  const [row] = await sql<{ checkpoint: string }[]>`
    select generation || ':' || checkpoint_commit || ':' || checkpoint_index as checkpoint
    from projector_generations where projector = 'statistics' and state = 'active'`;
  return row?.checkpoint ?? "none";
}
