import type { PlayerAggregate } from "./aggregate.js";

/**
 * Leaderboards: which players qualify for a metric in a scope and in what order they rank
 * (DESIGN.md §8). Pure: the same standings always give the same table.
 *
 * - Totals (most runs, wickets, fours, sixes) list only players with a value above 0.
 * - Rates need a minimum, by scope (season / competition): batting average 5 / 10 batting
 *   innings (and at least one dismissal, or there is no average); batting strike rate 100 /
 *   250 balls faced; bowling average and bowling strike rate 10 / 20 wickets; economy 120 /
 *   300 balls bowled (20 / 50 overs). The numbers are ours (docs/statistics.md says why).
 * - Rates rank on their exact value (compared as fractions, never as rounded numbers). Equal
 *   values are ordered by each metric's cricket tie-breaks in turn (the figures behind the
 *   value: runs conceded, balls, innings…); players level on all of them share a rank and are
 *   listed by name, then participant id, which order the rows but never the ranks.
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
  name: string;
  battingInnings: number;
  runs: number;
  ballsFaced: number;
  dismissals: number;
  fours: number;
  sixes: number;
  bowlingInnings: number;
  ballsBowled: number;
  runsConceded: number;
  wickets: number;
};

type Figure = Exclude<keyof Standing, "participantId" | "name">;
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
  /**
   * Cricket figures that order equal values, in turn. Each is a raw figure (exact, never
   * null) chosen so that, with the value equal, it means the better rate named beside it.
   */
  tieBreaks: readonly Key[];
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
const fewer = (figure: Figure, describe: string): Key => ({ describe, order: "ascending", of: (s) => s[figure] });

const fewerBallsFaced = fewer("ballsFaced", "fewer balls faced (higher strike rate)");
const fewerDismissals = fewer("dismissals", "fewer dismissals (higher batting average)");
const fewerBattingInnings = fewer("battingInnings", "fewer batting innings");
const moreRuns = more("runs", "more runs");
const fewerRunsConceded = fewer("runsConceded", "fewer runs conceded (lower bowling average)");
const fewerBallsBowled = fewer("ballsBowled", "fewer balls bowled (lower bowling strike rate)");
const fewerBowlingInnings = fewer("bowlingInnings", "fewer bowling innings");
const moreWickets = more("wickets", "more wickets");

export const LEADERBOARD_METRICS: Record<Metric, Definition> = {
  most_runs: {
    family: "batting",
    describe: "Runs scored off the bat",
    order: "descending",
    of: (s) => s.runs,
    qualification: total("runs", "runs"),
    tieBreaks: [fewerBallsFaced, fewerDismissals, fewerBattingInnings],
  },
  most_wickets: {
    family: "bowling",
    describe: "Wickets credited to the bowler",
    order: "descending",
    of: (s) => s.wickets,
    qualification: total("wickets", "wickets"),
    tieBreaks: [fewerRunsConceded, fewerBallsBowled, fewerBowlingInnings],
  },
  most_fours: {
    family: "batting",
    describe: "Fours off the bat",
    order: "descending",
    of: (s) => s.fours,
    qualification: total("fours", "fours"),
    tieBreaks: [more("sixes", "more sixes"), moreRuns, fewerBallsFaced],
  },
  most_sixes: {
    family: "batting",
    describe: "Sixes off the bat",
    order: "descending",
    of: (s) => s.sixes,
    qualification: total("sixes", "sixes"),
    tieBreaks: [more("fours", "more fours"), moreRuns, fewerBallsFaced],
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
    tieBreaks: [moreRuns, fewerBallsFaced, fewerBattingInnings],
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
    tieBreaks: [moreRuns, fewerDismissals, fewerBattingInnings],
  },
  best_bowling_average: {
    family: "bowling",
    describe: "Runs conceded per wicket",
    order: "ascending",
    of: bowlingAverage,
    qualification: { figure: "wickets", minimum: { season: 10, competition: 20 }, describe: atLeast("wickets") },
    tieBreaks: [moreWickets, fewerBallsBowled, fewerBowlingInnings],
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
    tieBreaks: [more("ballsBowled", "more balls bowled"), moreWickets, fewerBowlingInnings],
  },
  best_bowling_strike_rate: {
    family: "bowling",
    describe: "Legal balls bowled per wicket",
    order: "ascending",
    of: (s) => ratio(s.ballsBowled, s.wickets),
    qualification: { figure: "wickets", minimum: { season: 10, competition: 20 }, describe: atLeast("wickets") },
    tieBreaks: [moreWickets, fewerRunsConceded, fewerBowlingInnings],
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

const names = new Intl.Collator("en");
const byNameThenId = (a: Standing, b: Standing) =>
  names.compare(a.name, b.name) || (a.participantId < b.participantId ? -1 : a.participantId > b.participantId ? 1 : 0);

/**
 * The qualifying standings in table order, each with its rank: the metric, then its cricket
 * tie-breaks; players level on all of those share the rank of the first of them (1, 2, 2, 4),
 * listed by name, then participant id.
 */
export function rankStandings<S extends Standing>(
  metric: Metric,
  scope: LeaderboardScope,
  standings: readonly S[],
): { rank: number; standing: S }[] {
  const definition = LEADERBOARD_METRICS[metric];
  const keys = [definition, ...definition.tieBreaks].map(byKey);
  const cricket = (a: Standing, b: Standing) => keys.reduce((order, key) => order || key(a, b), 0);
  const ordered = standings
    .filter((s) => qualifies(metric, scope, s))
    .sort((a, b) => cricket(a, b) || byNameThenId(a, b));
  let rank = 0;
  return ordered.map((standing, i) => {
    const previous = ordered[i - 1];
    if (!previous || cricket(previous, standing) !== 0) rank = i + 1;
    return { rank, standing };
  });
}

/** Rows kept of every table: the most a request may ask for. */
export const LEADERBOARD_DEPTH = 50;
/** Rows a request gets when it does not say. */
export const LEADERBOARD_DEFAULT_ROWS = 10;

export type LeaderboardEntry = { metric: Metric; rank: number; participantId: string };

/** The first `LEADERBOARD_DEPTH` rows of every metric's table over one scope's standings. */
export const leaderboardEntries = (scope: LeaderboardScope, standings: readonly Standing[]): LeaderboardEntry[] =>
  METRICS.flatMap((metric) =>
    rankStandings(metric, scope, standings)
      .slice(0, LEADERBOARD_DEPTH)
      .map(({ rank, standing }) => ({ metric, rank, participantId: standing.participantId })),
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

/** What orders players level on every cricket figure: their rows, never their shared rank. */
const ROW_ORDER = ["participant name ascending (rank shared)", "participant id ascending (rank shared)"];

/** How the table is ordered, in words: the metric's direction, then each tie-break. */
export const rankingRule = (metric: Metric) => {
  const definition = LEADERBOARD_METRICS[metric];
  return {
    order: definition.order,
    tieBreaks: [...definition.tieBreaks.map((key) => key.describe), ...ROW_ORDER],
  };
};
