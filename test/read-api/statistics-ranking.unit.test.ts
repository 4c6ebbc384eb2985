import { describe, expect, it } from "vitest";
import {
  LEADERBOARD_DEPTH,
  LEADERBOARD_METRICS,
  leaderboardEntries,
  type Metric,
  qualificationRule,
  rankingRule,
  rankStandings,
  type Standing,
} from "../../src/statistics/leaderboards.js";
import { rate } from "../../src/statistics/rules.js";

/** The ranking rules behind GET /statistics/leaderboards, on standings built for each rule. */
const zero: Omit<Standing, "participantId" | "name"> = {
  battingInnings: 0,
  runs: 0,
  ballsFaced: 0,
  dismissals: 0,
  fours: 0,
  sixes: 0,
  bowlingInnings: 0,
  ballsBowled: 0,
  runsConceded: 0,
  wickets: 0,
};
const standing = (participantId: string, figures: Partial<Standing>): Standing => ({
  ...zero,
  participantId,
  name: participantId,
  ...figures,
});
const batter = (participantId: string, runs: number, dismissals: number, innings = 12, more: Partial<Standing> = {}) =>
  standing(participantId, { runs, dismissals, battingInnings: innings, ballsFaced: runs, ...more });
const bowler = (
  participantId: string,
  runsConceded: number,
  ballsBowled: number,
  wickets = 12,
  more: Partial<Standing> = {},
) => standing(participantId, { runsConceded, ballsBowled, wickets, bowlingInnings: 10, ...more });
type Ranked = ReturnType<typeof rankStandings>;
const ids = (ranked: Ranked) => ranked.map((r) => r.standing.participantId);
const table = (ranked: Ranked) => ranked.map((r) => [r.rank, r.standing.participantId]);

describe("leaderboard ranking", () => {
  it("ranks rates on their exact value, not the rounded one", () => {
    // 1003/30 = 33.433… and 3343/100 = 33.43 both publish as 33.43; the first is higher.
    expect(rate(1003, 30)).toBe(rate(3343, 100));
    expect(
      table(rankStandings("highest_batting_average", "season", [batter("b", 3343, 100), batter("a", 1003, 30)])),
    ).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  // Each metric's tie-breaks in turn: the first pair is level on the value and splits on the
  // first tie-break, the second pair also on that one and splits on the next, and so on.
  const tieBreakCases: [Metric, Standing[], string[]][] = [
    [
      "most_runs",
      [
        batter("slower", 300, 5, 12, { ballsFaced: 250 }),
        batter("quicker", 300, 5, 12, { ballsFaced: 240 }),
        batter("out-more", 300, 6, 12, { ballsFaced: 240 }),
        batter("more-innings", 300, 5, 13, { ballsFaced: 240 }),
      ],
      ["quicker", "more-innings", "out-more", "slower"],
    ],
    [
      "most_wickets",
      [
        // IPL 2009/10: UT Yadav 6/184 in 144 balls, SR Watson 6/184 in 132.
        bowler("yadav", 184, 144, 6),
        bowler("watson", 184, 132, 6),
        bowler("dearer", 190, 120, 6),
        bowler("more-innings", 184, 132, 6, { bowlingInnings: 11 }),
      ],
      ["watson", "more-innings", "yadav", "dearer"],
    ],
    [
      "most_fours",
      [
        batter("fewer-sixes", 200, 4, 10, { fours: 20, sixes: 4 }),
        batter("more-sixes", 200, 4, 10, { fours: 20, sixes: 5 }),
        batter("more-runs", 210, 4, 10, { fours: 20, sixes: 5 }),
        batter("slower", 210, 4, 10, { fours: 20, sixes: 5, ballsFaced: 220 }),
      ],
      ["more-runs", "slower", "more-sixes", "fewer-sixes"],
    ],
    [
      "most_sixes",
      [
        batter("fewer-fours", 200, 4, 10, { sixes: 9, fours: 10 }),
        batter("more-fours", 200, 4, 10, { sixes: 9, fours: 11 }),
        batter("more-runs", 210, 4, 10, { sixes: 9, fours: 11 }),
        batter("slower", 210, 4, 10, { sixes: 9, fours: 11, ballsFaced: 220 }),
      ],
      ["more-runs", "slower", "more-fours", "fewer-fours"],
    ],
    [
      "highest_batting_average",
      [
        batter("fewer-runs", 150, 5, 10),
        batter("more-runs", 300, 10, 12, { ballsFaced: 250 }),
        batter("quicker", 300, 10, 12, { ballsFaced: 240 }),
        batter("more-innings", 300, 10, 13, { ballsFaced: 240 }),
      ],
      ["quicker", "more-innings", "more-runs", "fewer-runs"],
    ],
    [
      "highest_strike_rate",
      [
        batter("fewer-runs", 150, 5, 10, { ballsFaced: 100 }),
        batter("more-runs", 300, 6, 12, { ballsFaced: 200 }),
        batter("out-less", 300, 5, 12, { ballsFaced: 200 }),
        batter("more-innings", 300, 5, 13, { ballsFaced: 200 }),
      ],
      ["out-less", "more-innings", "more-runs", "fewer-runs"],
    ],
    [
      "best_bowling_average",
      [
        bowler("fewer-wickets", 200, 240, 10),
        bowler("more-wickets", 240, 300, 12),
        bowler("quicker", 240, 288, 12),
        bowler("more-innings", 240, 288, 12, { bowlingInnings: 11 }),
      ],
      ["quicker", "more-innings", "more-wickets", "fewer-wickets"],
    ],
    [
      "best_economy_rate",
      [
        bowler("fewer-balls", 150, 120, 12),
        bowler("more-balls", 300, 240, 10),
        bowler("more-wickets", 300, 240, 11),
        bowler("more-innings", 300, 240, 11, { bowlingInnings: 11 }),
      ],
      ["more-wickets", "more-innings", "more-balls", "fewer-balls"],
    ],
    [
      "best_bowling_strike_rate",
      [
        bowler("fewer-wickets", 200, 200, 10),
        bowler("dearer", 300, 240, 12),
        bowler("cheaper", 250, 240, 12),
        bowler("more-innings", 250, 240, 12, { bowlingInnings: 11 }),
      ],
      ["cheaper", "more-innings", "dearer", "fewer-wickets"],
    ],
  ];
  it.each(tieBreakCases)("%s: equal values ordered by the cricket tie-breaks, in turn", (metric, standings, order) => {
    // Ids and names that sort against the expected order: only the cricket figures can give it.
    const against = (id: string) => `${order.length - order.indexOf(id)} ${id}`;
    const renamed = standings.map((s) => ({ ...s, participantId: against(s.participantId), name: against(s.name) }));
    expect(table(rankStandings(metric, "season", renamed))).toEqual(order.map((id, i) => [i + 1, against(id)]));
    expect(rankingRule(metric).tieBreaks).toHaveLength(LEADERBOARD_METRICS[metric].tieBreaks.length + 2);
  });

  it("gives players level on every cricket figure one rank, listed by name, then participant id", () => {
    const level = { runs: 300, dismissals: 5, battingInnings: 12, ballsFaced: 240 };
    const standings = [
      standing("p1", { ...level, name: "Zaheer Khan" }),
      standing("p9", { ...level, name: "AB de Villiers" }),
      standing("p3", { ...level, runs: 400, name: "V Kohli" }),
      standing("p2", { ...level, name: "AB de Villiers" }),
      standing("p4", { ...level, runs: 200, name: "A Nehra" }),
    ];
    expect(table(rankStandings("most_runs", "season", standings))).toEqual([
      [1, "p3"],
      [2, "p2"],
      [2, "p9"],
      [2, "p1"],
      [5, "p4"],
    ]);
    expect(rankingRule("most_runs").tieBreaks.slice(-2)).toEqual([
      "participant name ascending (rank shared)",
      "participant id ascending (rank shared)",
    ]);
  });

  it("lists only qualified players, with the minimums of the scope", () => {
    const standings = [
      batter("five-innings", 200, 4, 5),
      batter("four-innings", 400, 3, 4),
      batter("never-out", 500, 0, 12),
    ];
    expect(ids(rankStandings("highest_batting_average", "season", standings))).toEqual(["five-innings"]);
    expect(ids(rankStandings("highest_batting_average", "competition", standings))).toEqual([]);
    expect(ids(rankStandings("most_runs", "season", [...standings, batter("no-runs", 0, 1)]))).toEqual([
      "never-out",
      "four-innings",
      "five-innings",
    ]);
    expect(ids(rankStandings("best_economy_rate", "season", [bowler("a", 100, 119), bowler("b", 200, 120)]))).toEqual([
      "b",
    ]);
    expect(qualificationRule("best_economy_rate", "competition")).toEqual({
      figure: "ballsBowled",
      minimum: 300,
      description: "At least 300 balls bowled (50 six-ball overs) in the competition.",
    });
    expect(qualificationRule("best_bowling_strike_rate", "season").minimum).toBe(10);
    expect(qualificationRule("highest_strike_rate", "competition").minimum).toBe(250);
  });
});

describe("leaderboard entries kept by the projector", () => {
  it("keeps the first LEADERBOARD_DEPTH ranks of every metric's table, in rank order", () => {
    const many = Array.from({ length: LEADERBOARD_DEPTH + 10 }, (_, i) => ({
      ...batter(`b${String(i).padStart(2, "0")}`, 100 + i, 1 + (i % 3)),
      fours: i % 2,
    }));
    const entries = leaderboardEntries("season", many);
    const table = (metric: string) => entries.filter((e) => e.metric === metric);

    expect(table("most_runs").map((e) => e.rank)).toEqual(Array.from({ length: LEADERBOARD_DEPTH }, (_, i) => i + 1));
    expect(table("most_runs").map((e) => e.participantId)).toEqual(
      ids(rankStandings("most_runs", "season", many)).slice(0, LEADERBOARD_DEPTH),
    );
    expect(table("most_runs")[0]?.participantId).toBe(`b${LEADERBOARD_DEPTH + 9}`);
    // Players without a four are not in that table; no bowling in these standings, no bowling tables.
    expect(table("most_fours")).toHaveLength(many.filter((s) => s.fours > 0).length);
    expect(table("most_wickets")).toEqual([]);
  });
});

describe("rate", () => {
  it("rounds half away from zero, exactly for whole-number figures", () => {
    expect(rate(436 * 6, 320)).toBe(8.18); // 8.175
    expect(rate(1005, 1000)).toBe(1.01); // 1.005, which floating point holds as 1.00499…
    expect(rate(973, 640, 100)).toBe(152.03);
    expect(rate(1, 3)).toBe(0.33);
    expect(rate(-1005, 1000)).toBe(-1.01);
    expect(rate(5, 0)).toBeNull();
  });
});
