import type { Sql } from "../../db/database.js";
import type { PlayerAggregate } from "../../statistics/aggregate.js";
import {
  LEADERBOARD_METRICS,
  type LeaderboardScope,
  type Metric,
  rankStandings,
} from "../../statistics/leaderboards.js";
import type { LeaderboardRow } from "../schemas/player-statistics.js";
import { scopeFigures, scopeStandings } from "./player-statistics.js";

/** The published value of a metric: the total, or the rate as the aggregate rounds it. */
const publishedValue: Record<Metric, (f: PlayerAggregate) => number | null> = {
  most_runs: (f) => f.batting.runs,
  most_fours: (f) => f.batting.fours,
  most_sixes: (f) => f.batting.sixes,
  highest_batting_average: (f) => f.batting.average,
  highest_strike_rate: (f) => f.batting.strikeRate,
  most_wickets: (f) => f.bowling.wickets,
  best_bowling_average: (f) => f.bowling.average,
  best_economy_rate: (f) => f.bowling.economy,
  best_bowling_strike_rate: (f) => f.bowling.strikeRate,
};

/** The first `limit` rows of the table: every player of the scope ranked (`rankStandings`), then their figures. */
export async function leaderboardRows(
  sql: Sql,
  metric: Metric,
  scope: LeaderboardScope,
  scopeId: string,
  limit: number,
): Promise<LeaderboardRow[]> {
  const top = rankStandings(metric, scope, await scopeStandings(sql, scope, scopeId)).slice(0, limit);
  const figures = await scopeFigures(
    sql,
    scope,
    scopeId,
    top.map((s) => s.participantId),
  );
  // A player whose aggregate went away between the two reads (a recompute) drops out; ranks stay 1..n.
  return top
    .flatMap((standing) => {
      const f = figures.get(standing.participantId);
      const value = f ? publishedValue[metric](f) : null;
      return f && value !== null ? [{ standing, f, value }] : [];
    })
    .map(({ standing, f, value }, i) => ({
      rank: i + 1,
      participantId: standing.participantId,
      participantName: standing.participantName,
      value,
      figures: LEADERBOARD_METRICS[metric].family === "batting" ? battingFigures(f) : bowlingFigures(f),
    }));
}

const battingFigures = ({ matches, batting: b }: PlayerAggregate) => ({
  matches,
  innings: b.innings,
  notOuts: b.notOuts,
  dismissals: b.innings - b.notOuts,
  runs: b.runs,
  balls: b.balls,
  average: b.average,
  strikeRate: b.strikeRate,
  highestScore: b.highestScore,
  fifties: b.fifties,
  hundreds: b.hundreds,
  fours: b.fours,
  sixes: b.sixes,
});

const bowlingFigures = ({ matches, bowling: b }: PlayerAggregate) => ({
  matches,
  innings: b.innings,
  balls: b.balls,
  overs: b.overs,
  maidens: b.maidens,
  runsConceded: b.runs,
  wickets: b.wickets,
  average: b.average,
  economy: b.economy,
  strikeRate: b.strikeRate,
  bestFigures: b.bestFigures,
  fourWickets: b.fourWickets,
  fiveWickets: b.fiveWickets,
});

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
