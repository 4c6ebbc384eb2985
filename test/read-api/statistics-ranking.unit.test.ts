import { describe, expect, it } from "vitest";
import {
  LEADERBOARD_DEPTH,
  leaderboardEntries,
  qualificationRule,
  rankStandings,
  type Standing,
} from "../../src/statistics/leaderboards.js";
import { rate } from "../../src/statistics/rules.js";

/** The ranking rules behind GET /statistics/leaderboards, on standings built for each rule. */
const zero: Omit<Standing, "participantId"> = {
  battingInnings: 0,
  runs: 0,
  ballsFaced: 0,
  dismissals: 0,
  fours: 0,
  sixes: 0,
  ballsBowled: 0,
  runsConceded: 0,
  wickets: 0,
};
const batter = (participantId: string, runs: number, dismissals: number, innings = 12): Standing => ({
  ...zero,
  participantId,
  runs,
  dismissals,
  battingInnings: innings,
  ballsFaced: runs,
});
const bowler = (participantId: string, runsConceded: number, ballsBowled: number, wickets = 12): Standing => ({
  ...zero,
  participantId,
  runsConceded,
  ballsBowled,
  wickets,
});
const ids = (standings: Standing[]) => standings.map((s) => s.participantId);

describe("leaderboard ranking", () => {
  it("ranks rates on their exact value, not the rounded one", () => {
    // 1003/30 = 33.433… and 3343/100 = 33.43 both publish as 33.43; the first is higher.
    expect(rate(1003, 30)).toBe(rate(3343, 100));
    expect(
      ids(rankStandings("highest_batting_average", "season", [batter("b", 3343, 100), batter("a", 1003, 30)])),
    ).toEqual(["a", "b"]);
  });

  it("breaks an exact tie on the secondary metric, then on participant id ascending", () => {
    const standings = [batter("c", 67, 2), batter("b", 134, 4), batter("a", 67, 2)];
    expect(ids(rankStandings("highest_batting_average", "season", standings))).toEqual(["b", "a", "c"]);
    const economy = [bowler("x", 150, 120), bowler("y", 300, 240), bowler("w", 150, 120)];
    expect(ids(rankStandings("best_economy_rate", "season", economy))).toEqual(["y", "w", "x"]);
    const wickets = [bowler("p", 300, 240, 20), bowler("q", 250, 240, 20)];
    expect(ids(rankStandings("most_wickets", "season", wickets))).toEqual(["q", "p"]); // lower average
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
