import type { Sql } from "../../db/database.js";
import type { PlayerAggregate } from "../../statistics/aggregate.js";
import type { LeaderboardScope } from "../../statistics/leaderboards.js";
import type { AggregateScope, ParticipantAggregate } from "../schemas/player-statistics.js";
import { findCompetition } from "./reference.js";

/**
 * Participant aggregates (`player_aggregate`, one row per player and season, competition or
 * career) with the names of their scopes from the reference data.
 */
export type ScopeType = "season" | "competition" | "career";
export type ScopeFilter = { type?: ScopeType | undefined; id?: string | undefined };

type AggregateRow = {
  scope_type: ScopeType;
  scope_id: string;
  figures: PlayerAggregate;
  season_name: string | null;
  season_competition_id: string | null;
  season_competition_name: string | null;
  competition_name: string | null;
};

export const aggregateStatisticId = (type: ScopeType, id: string) => (type === "career" ? "career" : `${type}-${id}`);

/** `career`, `season-<id>` or `competition-<id>` back to its scope; undefined for anything else. */
export function parseAggregateStatisticId(statisticId: string): { type: ScopeType; id: string } | undefined {
  if (statisticId === "career") return { type: "career", id: "" };
  const match = /^(season|competition)-(.+)$/.exec(statisticId);
  return match ? { type: match[1] as ScopeType, id: match[2] as string } : undefined;
}

/** A participant's aggregates: career first, then competitions by name, then seasons by start date. */
export async function participantAggregates(
  sql: Sql,
  participant: { participantId: string; name: string },
  filter: ScopeFilter,
): Promise<ParticipantAggregate[]> {
  const rows = await sql<AggregateRow[]>`
    select a.scope_type, a.scope_id, a.figures,
           s.name as season_name, s.competition_id as season_competition_id, sc.name as season_competition_name,
           c.name as competition_name
    from player_aggregate a
    left join season s on a.scope_type = 'season' and s.season_id = a.scope_id
    left join competition sc on sc.competition_id = s.competition_id
    left join competition c on a.scope_type = 'competition' and c.competition_id = a.scope_id
    where a.participant_id = ${participant.participantId}
      ${filter.type ? sql`and a.scope_type = ${filter.type}` : sql``}
      ${filter.id !== undefined ? sql`and a.scope_id = ${filter.id}` : sql``}
    order by case a.scope_type when 'career' then 0 when 'competition' then 1 else 2 end,
             c.sort_name nulls last, s.start_date nulls last, a.scope_id`;
  return rows.map((r) => toAggregate(participant, r));
}

function scopeOf(r: AggregateRow): AggregateScope {
  if (r.scope_type === "career") return { type: "career", id: null, name: null, competition: null };
  if (r.scope_type === "competition")
    return { type: "competition", id: r.scope_id, name: r.competition_name, competition: null };
  return {
    type: "season",
    id: r.scope_id,
    name: r.season_name,
    competition: r.season_competition_id
      ? { competitionId: r.season_competition_id, name: r.season_competition_name }
      : null,
  };
}

function toAggregate(participant: { participantId: string; name: string }, r: AggregateRow): ParticipantAggregate {
  const { batting, bowling, fielding } = r.figures;
  return {
    statisticId: aggregateStatisticId(r.scope_type, r.scope_id),
    participant: { participantId: participant.participantId, name: participant.name },
    scope: scopeOf(r),
    matches: r.figures.matches,
    batting: {
      innings: batting.innings,
      notOuts: batting.notOuts,
      dismissals: batting.innings - batting.notOuts,
      runs: batting.runs,
      balls: batting.balls,
      highestScore: batting.highestScore,
      average: batting.average,
      strikeRate: batting.strikeRate,
      fifties: batting.fifties,
      hundreds: batting.hundreds,
      ducks: batting.ducks,
      fours: batting.fours,
      sixes: batting.sixes,
    },
    bowling: {
      innings: bowling.innings,
      balls: bowling.balls,
      overs: bowling.overs,
      maidens: bowling.maidens,
      runs: bowling.runs,
      wickets: bowling.wickets,
      bestFigures: bowling.bestFigures,
      average: bowling.average,
      economy: bowling.economy,
      strikeRate: bowling.strikeRate,
      fourWickets: bowling.fourWickets,
      fiveWickets: bowling.fiveWickets,
    },
    fielding: { catches: fielding.catches, stumpings: fielding.stumpings, runOuts: fielding.runOuts },
  };
}

/** A season or competition named from the reference data; undefined when it does not exist. */
export async function findLeaderboardScope(
  sql: Sql,
  type: LeaderboardScope,
  id: string,
): Promise<(AggregateScope & { type: LeaderboardScope }) | undefined> {
  if (type === "competition") {
    const competition = await findCompetition(sql, id);
    return competition ? { type, id, name: competition.name, competition: null } : undefined;
  }
  const [row] = await sql<{ name: string; competition_id: string; competition_name: string | null }[]>`
    select s.name, s.competition_id, c.name as competition_name
    from season s left join competition c on c.competition_id = s.competition_id
    where s.season_id = ${id}`;
  return row
    ? { type, id, name: row.name, competition: { competitionId: row.competition_id, name: row.competition_name } }
    : undefined;
}
