import type { PlayerAggregate } from "./aggregate.js";

/**
 * Leaderboards: which players qualify for a metric in a scope and in what order they rank
 * (DESIGN.md §8). Pure: the same standings always give the same table.
 *
 * - Totals (most runs, wickets, fours, sixes) list only players with a value above 0.
 * - Rates need a minimum, like the major statistics sites, by scope (season / competition):
 *   batting average 5 / 10 batting innings (and at least one dismissal, or there is no
 *   average); batting strike rate 100 / 250 balls faced; bowling average and bowling strike
 *   rate 10 / 20 wickets; economy 120 / 300 balls bowled (20 / 50 overs).
 * - Rates rank on their exact value (compared as fractions, never as rounded numbers); ties
 *   break on a secondary metric, then on participant id ascending, so every rank is unique.
 */
export const METRICS = [
  "most_runs",
  "most_wickets",
  "most_fours",
  "most_sixes",
  "highest_batting_average",
  "highest_strike_rate",
  "best_bowling_average",
  "best_economy_rate",
  "best_bowling_strike_rate",
] as const;
export type Metric = (typeof METRICS)[number];
export type LeaderboardScope = "season" | "competition";

/** A player's figures over the scope, as the aggregates hold them. */
export type Standing = {
  participantId: string;
  battingInnings: number;
  runs: number;
  ballsFaced: number;
  dismissals: number;
  fours: number;
  sixes: number;
  ballsBowled: number;
  runsConceded: number;
  wickets: number;
};

type Figure = Exclude<keyof Standing, "participantId">;
/** A value as a fraction (numerator, denominator > 0), or a whole number. */
type Value = number | [number, number];
type Order = "descending" | "ascending";
type Key = { describe: string; order: Order; of: (s: Standing) => Value | null };

type Definition = {
  family: "batting" | "bowling";
  describe: string;
  order: Order;
  of: (s: Standing) => Value | null;
  qualification: {
    figure: Figure;
    minimum: Record<LeaderboardScope, number>;
    /** Also needs this figure above 0 (an average needs a dismissal). */
    extra?: Figure;
    describe: (minimum: number, scope: LeaderboardScope) => string;
  };
  tieBreak: Key;
};

const ratio = (n: number, d: number): [number, number] | null => (d > 0 ? [n, d] : null);
const total = (figure: Figure, what: string) => ({
  figure,
  minimum: { season: 1, competition: 1 },
  describe: (_: number, scope: LeaderboardScope) => `Players with more than 0 ${what} in the ${scope}.`,
});
const atLeast =
  (what: string, also = "") =>
  (minimum: number, scope: LeaderboardScope) =>
    `At least ${minimum} ${what} in the ${scope}${also}.`;

const strikeRate = (s: Standing) => ratio(s.runs, s.ballsFaced);
const bowlingAverage = (s: Standing) => ratio(s.runsConceded, s.wickets);
const more = (figure: Figure, describe: string): Key => ({ describe, order: "descending", of: (s) => s[figure] });

export const LEADERBOARD_METRICS: Record<Metric, Definition> = {
  most_runs: {
    family: "batting",
    describe: "Runs scored off the bat",
    order: "descending",
    of: (s) => s.runs,
    qualification: total("runs", "runs"),
    tieBreak: { describe: "higher batting strike rate", order: "descending", of: strikeRate },
  },
  most_wickets: {
    family: "bowling",
    describe: "Wickets credited to the bowler",
    order: "descending",
    of: (s) => s.wickets,
    qualification: total("wickets", "wickets"),
    tieBreak: { describe: "lower bowling average", order: "ascending", of: bowlingAverage },
  },
  most_fours: {
    family: "batting",
    describe: "Fours off the bat",
    order: "descending",
    of: (s) => s.fours,
    qualification: total("fours", "fours"),
    tieBreak: more("sixes", "more sixes"),
  },
  most_sixes: {
    family: "batting",
    describe: "Sixes off the bat",
    order: "descending",
    of: (s) => s.sixes,
    qualification: total("sixes", "sixes"),
    tieBreak: more("fours", "more fours"),
  },
  highest_batting_average: {
    family: "batting",
    describe: "Runs per dismissal",
    order: "descending",
    of: (s) => ratio(s.runs, s.dismissals),
    qualification: {
      figure: "battingInnings",
      minimum: { season: 5, competition: 10 },
      describe: atLeast("batting innings", ", and at least one dismissal"),
      extra: "dismissals",
    },
    tieBreak: more("runs", "more runs"),
  },
  highest_strike_rate: {
    family: "batting",
    describe: "Runs per 100 balls faced",
    order: "descending",
    of: strikeRate,
    qualification: {
      figure: "ballsFaced",
      minimum: { season: 100, competition: 250 },
      describe: atLeast("balls faced"),
    },
    tieBreak: more("runs", "more runs"),
  },
  best_bowling_average: {
    family: "bowling",
    describe: "Runs conceded per wicket",
    order: "ascending",
    of: bowlingAverage,
    qualification: { figure: "wickets", minimum: { season: 10, competition: 20 }, describe: atLeast("wickets") },
    tieBreak: more("wickets", "more wickets"),
  },
  best_economy_rate: {
    family: "bowling",
    describe: "Runs conceded per over",
    order: "ascending",
    // Runs per legal ball: the same order as runs per over when the scope's overs are of one length.
    of: (s) => ratio(s.runsConceded, s.ballsBowled),
    qualification: {
      figure: "ballsBowled",
      minimum: { season: 120, competition: 300 },
      describe: (minimum, scope) => atLeast(`balls bowled (${minimum / 6} six-ball overs)`)(minimum, scope),
    },
    tieBreak: more("ballsBowled", "more balls bowled"),
  },
  best_bowling_strike_rate: {
    family: "bowling",
    describe: "Legal balls bowled per wicket",
    order: "ascending",
    of: (s) => ratio(s.ballsBowled, s.wickets),
    qualification: { figure: "wickets", minimum: { season: 10, competition: 20 }, describe: atLeast("wickets") },
    tieBreak: more("wickets", "more wickets"),
  },
};

/** The qualification rule applied to a metric in a scope, in words and as a minimum of one figure. */
export function qualificationRule(metric: Metric, scope: LeaderboardScope) {
  const { qualification } = LEADERBOARD_METRICS[metric];
  const minimum = qualification.minimum[scope];
  return { figure: qualification.figure, minimum, description: qualification.describe(minimum, scope) };
}

export const qualifies = (metric: Metric, scope: LeaderboardScope, s: Standing) => {
  const { qualification, of } = LEADERBOARD_METRICS[metric];
  return (
    s[qualification.figure] >= qualification.minimum[scope] &&
    (qualification.extra === undefined || s[qualification.extra] > 0) &&
    of(s) !== null
  );
};

/** Exact comparison of two values, fractions by cross-multiplication (whole numbers stay exact below 2^53). */
function compareValues(a: Value, b: Value): number {
  const [an, ad] = typeof a === "number" ? [a, 1] : a;
  const [bn, bd] = typeof b === "number" ? [b, 1] : b;
  return an * bd - bn * ad;
}

function byKey(key: Key) {
  const sign = key.order === "descending" ? -1 : 1;
  return (a: Standing, b: Standing) => {
    const [va, vb] = [key.of(a), key.of(b)];
    if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1; // no value ranks last
    return sign * Math.sign(compareValues(va, vb));
  };
}

/** The qualifying standings in rank order: the metric, its tie-break, then participant id ascending. */
export function rankStandings<S extends Standing>(
  metric: Metric,
  scope: LeaderboardScope,
  standings: readonly S[],
): S[] {
  const definition = LEADERBOARD_METRICS[metric];
  const primary = byKey(definition);
  const secondary = byKey(definition.tieBreak);
  return standings
    .filter((s) => qualifies(metric, scope, s))
    .sort(
      (a, b) =>
        primary(a, b) ||
        secondary(a, b) ||
        (a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0),
    );
}

/** Rows kept of every table: the most a request may ask for. */
export const LEADERBOARD_DEPTH = 50;

export type LeaderboardEntry = { metric: Metric; rank: number; participantId: string };

/** The first `LEADERBOARD_DEPTH` ranks of every metric's table over one scope's standings. */
export const leaderboardEntries = (scope: LeaderboardScope, standings: readonly Standing[]): LeaderboardEntry[] =>
  METRICS.flatMap((metric) =>
    rankStandings(metric, scope, standings)
      .slice(0, LEADERBOARD_DEPTH)
      .map((s, i) => ({ metric, rank: i + 1, participantId: s.participantId })),
  );

/**
 * What a leaderboard row publishes of a ranked player: the metric's value (the total, or the
 * rate as the aggregate rounds it; a ranked player qualifies, so it exists) and the batting or
 * bowling figures behind it.
 */
export const leaderboardFigures = (metric: Metric, aggregate: PlayerAggregate) => ({
  value: publishedValue[metric](aggregate) as number,
  figures: LEADERBOARD_METRICS[metric].family === "batting" ? battingFigures(aggregate) : bowlingFigures(aggregate),
});

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

/** How the table is ordered, in words: the metric's direction, then each tie-break. */
export const rankingRule = (metric: Metric) => {
  const definition = LEADERBOARD_METRICS[metric];
  return {
    order: definition.order,
    tieBreaks: [definition.tieBreak.describe, "participant id ascending"],
  };
};
