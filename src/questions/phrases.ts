import type { Metric } from "../statistics/leaderboards.js";
import type { FigurePath } from "./definition.js";

/**
 * The words of questions about cricket statistics, as the translator reads them: what each
 * phrase asks for. Phrases are written in the canonical form of `canonical` (lower case, no
 * apostrophes or hyphens); the longest phrase at a position wins, so `bowling strike rate`
 * beats `strike rate` and `run outs` beats `runs`.
 */
export type Statistic = {
  metric?: Metric;
  figure: FigurePath;
  /** What it is with "bowling" (`runs` are then runs conceded). */
  bowling?: Statistic;
  /** The competition it belongs to when the question names none: the orange cap is the IPL's. */
  competition?: string;
};
export type Meaning =
  | { kind: "statistic"; statistic: Statistic }
  | { kind: "everything" }
  | { kind: "discipline"; discipline: "batting" | "bowling" | "fielding" }
  | { kind: "limit"; limit: number }
  | { kind: "ordinal"; ordinal: number }
  | { kind: "season-word" }
  | { kind: "all-time" }
  | { kind: "role" }
  | { kind: "unknown-competition" }
  | { kind: "comparison" }
  | { kind: "conjunction" }
  | { kind: "direction"; direction: "high" | "low" | "worst" }
  | { kind: "gender"; women: boolean }
  | { kind: "possessive" }
  | { kind: "filler" };

const statistic = (metric: Metric | undefined, figure: FigurePath, bowling?: Statistic): Meaning => ({
  kind: "statistic",
  statistic: { ...(metric ? { metric } : {}), figure, ...(bowling ? { bowling } : {}) },
});
const ipl = (metric: Metric, figure: FigurePath): Meaning => ({
  kind: "statistic",
  statistic: { metric, figure, competition: "ipl" },
});

const BOWLING_AVERAGE: Statistic = { metric: "best_bowling_average", figure: "bowling.average" };
const BOWLING_STRIKE_RATE: Statistic = { metric: "best_bowling_strike_rate", figure: "bowling.strikeRate" };

const STATISTICS: [phrases: string, meaning: Meaning][] = [
  [
    "runs|run|run scorer|run scorers|run getter|run getters|scorer|scorers",
    statistic("most_runs", "batting.runs", { figure: "bowling.runs" }),
  ],
  ["orange cap|orange cap winner|orange cap holder", ipl("most_runs", "batting.runs")],
  [
    "wickets|wicket|wicket taker|wicket takers|wickettaker|wickettakers|scalps",
    statistic("most_wickets", "bowling.wickets"),
  ],
  ["purple cap|purple cap winner|purple cap holder", ipl("most_wickets", "bowling.wickets")],
  ["sixes|six|6s|maximums|sixers|six hitters|six hitter", statistic("most_sixes", "batting.sixes")],
  ["fours|4s|boundaries", statistic("most_fours", "batting.fours")],
  [
    "average|averages|avg|batting average|batting averages",
    statistic("highest_batting_average", "batting.average", BOWLING_AVERAGE),
  ],
  ["bowling average|bowling averages", statistic(BOWLING_AVERAGE.metric, BOWLING_AVERAGE.figure)],
  [
    "strike rate|strike rates|strikerate|batting strike rate|sr",
    statistic("highest_strike_rate", "batting.strikeRate", BOWLING_STRIKE_RATE),
  ],
  ["bowling strike rate|bowling strike rates", statistic(BOWLING_STRIKE_RATE.metric, BOWLING_STRIKE_RATE.figure)],
  [
    "economy|economy rate|economy rates|economical|most economical|economically|most economically|econ|runs per over",
    statistic("best_economy_rate", "bowling.economy"),
  ],
  ["matches|match|games|appearances|matches played|games played", statistic(undefined, "matches")],
  ["innings|innings played", statistic(undefined, "batting.innings", { figure: "bowling.innings" })],
  ["not outs|not out|times not out", statistic(undefined, "batting.notOuts")],
  ["dismissals|times dismissed|times out", statistic(undefined, "batting.dismissals")],
  ["balls faced|balls", statistic(undefined, "batting.balls", { figure: "bowling.balls" })],
  [
    "highest score|highest scores|best score|top score|highest individual score|best innings|hs",
    statistic(undefined, "batting.highestScore"),
  ],
  ["fifties|fifty|50s|half centuries|half century|half tons", statistic(undefined, "batting.fifties")],
  ["hundreds|hundred|centuries|century|100s|tons|ton", statistic(undefined, "batting.hundreds")],
  ["ducks|duck|golden ducks", statistic(undefined, "batting.ducks")],
  ["balls bowled|deliveries bowled|deliveries", statistic(undefined, "bowling.balls")],
  ["overs|overs bowled", statistic(undefined, "bowling.overs")],
  ["maidens|maiden|maiden overs|maiden over", statistic(undefined, "bowling.maidens")],
  ["runs conceded|runs given|runs leaked", statistic(undefined, "bowling.runs")],
  ["best figures|best bowling figures|best bowling figure|bbi", statistic(undefined, "bowling.bestFigures")],
  [
    "four wicket hauls|four wicket haul|4 wicket hauls|4 wicket haul|four fors|4 fors|four wickets in an innings",
    statistic(undefined, "bowling.fourWickets"),
  ],
  [
    "five wicket hauls|five wicket haul|5 wicket hauls|5 wicket haul|fifers|fivefors|five fors|5 fors|five wickets in an innings",
    statistic(undefined, "bowling.fiveWickets"),
  ],
  ["catches|catch|catches taken", statistic(undefined, "fielding.catches")],
  ["stumpings|stumping|stumped", statistic(undefined, "fielding.stumpings")],
  ["run outs|run out|runouts|runout|run outs effected", statistic(undefined, "fielding.runOuts")],
];

const ORDINALS = [
  "first|1st|inaugural",
  "second|2nd",
  "third|3rd",
  "fourth|4th",
  "fifth|5th",
  "sixth|6th",
  "seventh|7th",
  "eighth|8th",
  "ninth|9th",
  "tenth|10th",
];

const NUMBERS =
  "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split(
    " ",
  );

const OTHERS: [phrases: string, meaning: Meaning][] = [
  [
    "stats|statistics|stat|record|records|figures|numbers|profile|summary|career stats|career record|overall record|all stats|every stat",
    { kind: "everything" },
  ],
  ["batting|batsman|batsmen|batter|batters|bat|with the bat", { kind: "discipline", discipline: "batting" }],
  [
    "bowling|bowler|bowlers|bowl|concede|conceded|concedes|conceding|with the ball",
    { kind: "discipline", discipline: "bowling" },
  ],
  ["fielding|fielder|fielders", { kind: "discipline", discipline: "fielding" }],
  // Roles and groups no read can filter by: answering without them would answer another question.
  [
    "opening batsman|opening batsmen|opening batter|opening batters|opening pair|opening partnership|debut|debuts|debutant|wicketkeeper|wicketkeepers|wicket keeper|wicket keepers|keeper|keepers|captain|captains|opener|openers|all rounder|all rounders|allrounder|allrounders|spinner|spinners|pacer|pacers|seamer|seamers|fast bowler|fast bowlers|overseas|uncapped|foreign|left hander|left handers|right hander|right handers|debutants",
    { kind: "role" },
  ],
  ["vs|versus|compare|compared|comparison|or|head to head", { kind: "comparison" }],
  // Between two names, two players ("Krunal and Hardik Pandya"); elsewhere nothing ("runs and wickets").
  ["and|&", { kind: "conjunction" }],
  // Which end of a table: leaderboards rank only the best, so the other end is refused.
  ["highest|most|biggest|greatest|maximum|max|higher|more", { kind: "direction", direction: "high" }],
  ["lowest|fewest|least|minimum|min|lower|less|fewer", { kind: "direction", direction: "low" }],
  ["worst|poorest|weakest", { kind: "direction", direction: "worst" }],
  ["women|woman|ladies|female|girls", { kind: "gender", women: true }],
  ["men|man|male", { kind: "gender", women: false }],
  // "his first season" counts the player's seasons, which no read does.
  ["his|her|their", { kind: "possessive" }],
  // Competitions we hold no data of: named, so the answer says so instead of looking for a player.
  [
    "big bash|big bash league|bbl|psl|pakistan super league|cpl|caribbean premier league|the hundred|sa20|ilt20|bpl|bangladesh premier league|lpl|lanka premier league|major league cricket|mlc|county championship|sheffield shield|ranji trophy|vitality blast|t20 blast|super smash",
    { kind: "unknown-competition" },
  ],
  ["last|latest|most recent|recent|current|this|newest", { kind: "ordinal", ordinal: -1 }],
  ["season|seasons|edition|editions|tournament|year|series|campaign", { kind: "season-word" }],
  [
    "career|ever|all time|alltime|of all time|overall|history|in history|lifetime|so far|till date|to date|until now|in total|total|altogether|combined|across seasons|all seasons|every season",
    { kind: "all-time" },
  ],
  [
    [
      "who whom whose what whats which when where how many much was were is are be been being the a an of in at on for",
      "to by from during did does do done has have had got get gets getting take took taken takes taking",
      "score scored scores scoring hit hits hitting smash smashed smashing make made makes making claim claimed",
      "bag bagged pick picked picking up best top leading number no tally me show tell give list find please",
      "whos i want know about can you could would like see player players cricketer cricketers with its",
      "rank ranking rankings leaderboard table chart charts league premier winner winners won win award holder",
      "holders as of there any stand stands standing currently across among amongst hitters hitter leaders",
      "leader topped tops played play plays playing face faced facing times time during throughout entire",
      "whole all held hold holds holding bowled",
    ]
      .join(" ")
      .replaceAll(" ", "|"),
    { kind: "filler" },
  ],
];

/** Phrases that are also initials people write names with: `SR` is a strike rate, `SR Watson` a player. */
export const ALSO_INITIALS = new Set(["sr"]);

/** Every phrase with its meaning. */
export function basePhrases(): [phrase: string, meaning: Meaning][] {
  const entries: [string, Meaning][] = [];
  for (const [phrases, meaning] of [...STATISTICS, ...OTHERS])
    for (const phrase of phrases.split("|")) entries.push([phrase, meaning]);
  ORDINALS.forEach((words, i) => {
    for (const word of words.split("|")) entries.push([word, { kind: "ordinal", ordinal: i + 1 }]);
  });
  NUMBERS.forEach((word, i) => {
    entries.push([`top ${word}`, { kind: "limit", limit: i + 1 }]);
  });
  entries.push(["top fifty", { kind: "limit", limit: 50 }]);
  return entries;
}

/** Numbers people write out, one to twenty, as words. */
export const numberWord = (word: string): number | undefined => {
  const i = NUMBERS.indexOf(word);
  return i < 0 ? undefined : i + 1;
};
