import type { Sql } from "../../db/database.js";
import type { LeaderboardScope, Metric } from "../../statistics/leaderboards.js";

/**
 * The first `limit` rows of the table as the statistics projector ranked and shaped them
 * (`leaderboard_entry`, see `leaderboardEntries`), as the JSON text of the `data` array:
 * built by the database, so a read neither parses nor re-serialises the figures. One table,
 * no join: planning is most of what this query costs. The name is the participant's
 * registered one, which the projector keeps (other spellings never replace it).
 */
export async function leaderboardRowsJson(
  sql: Sql,
  metric: Metric,
  scope: LeaderboardScope,
  scopeId: string,
  limit: number,
): Promise<string> {
  const [row] = await sql<{ data: string }[]>`
    select coalesce(json_agg(json_build_object(
             'rank', e.rank, 'participantId', e.participant_id,
             'participantName', e.participant_name, 'value', e.value, 'figures', e.figures
           ) order by e.rank), '[]')::text as data
    from leaderboard_entry e
    where e.scope_type = ${scope} and e.scope_id = ${scopeId} and e.metric = ${metric} and e.rank <= ${limit}`;
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
