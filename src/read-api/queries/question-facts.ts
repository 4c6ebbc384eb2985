import type { Sql } from "../../db/database.js";

/**
 * What answering questions reads beyond the published reads: every name of the reference data
 * (for the vocabulary), which of several players have figures in a scope, and when each
 * played (to tell candidates apart).
 */
export type CompetitionNames = { competition_id: string; name: string; alternative_names: string[] };
/** Oldest first within each competition. */
export type SeasonNames = { season_id: string; competition_id: string; label: string; name: string };
export type ParticipantNames = {
  participant_id: string;
  name: string;
  alternative_names: string[];
  source_ids: string[];
};

export async function referenceNames(sql: Sql) {
  const [competitions, seasons, participants] = await Promise.all([
    sql<CompetitionNames[]>`select competition_id, name, alternative_names from competition`,
    sql<SeasonNames[]>`
      select season_id, competition_id, label, name from season
      order by competition_id, start_date nulls last, season_id`,
    sql<ParticipantNames[]>`select participant_id, name, alternative_names, source_ids from participant`,
  ]);
  return { competitions, seasons, participants };
}

/** Those of `ids` with an aggregate in the season or competition (by `player_aggregate`'s key). */
export async function withFiguresIn(
  sql: Sql,
  scope: { type: "season" | "competition"; id: string },
  ids: readonly string[],
): Promise<string[]> {
  const rows = await sql<{ participant_id: string }[]>`
    select participant_id from player_aggregate
    where scope_type = ${scope.type} and scope_id = ${scope.id} and participant_id = any(${ids as string[]})`;
  return rows.map((r) => r.participant_id);
}

export type PlayingSpan = { matches: number | null; first: string | null; last: string | null };

/** Each player's career matches and the years of their first and last seasons; the players are few. */
export async function playingSpans(sql: Sql, ids: readonly string[]): Promise<Map<string, PlayingSpan>> {
  const rows = await sql<({ participant_id: string } & PlayingSpan)[]>`
    select a.participant_id, max(c.matches) as matches,
           extract(year from min(s.start_date))::text as first, extract(year from max(s.start_date))::text as last
    from player_aggregate a
    join season s on s.season_id = a.scope_id
    left join player_aggregate c on c.scope_type = 'career' and c.scope_id = '' and c.participant_id = a.participant_id
    where a.scope_type = 'season' and a.participant_id = any(${ids as string[]})
    group by a.participant_id`;
  return new Map(rows.map(({ participant_id, ...span }) => [participant_id, span]));
}
