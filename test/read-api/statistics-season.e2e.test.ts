import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { METRICS } from "../../src/statistics/leaderboards.js";
import { type RawMatch, readMatch } from "../support/cricsheet.js";
import { invalidFields, openReadApi, type ReadApi } from "../support/read-api.js";
import { importMatches } from "../support/statistics.js";

/**
 * Leaderboards and participant aggregates over IPL 2016 (the 60 files ipl/980901.json …
 * ipl/981019.json), checked against figures this test computes itself from the raw Cricsheet
 * JSON, without the statistics engine.
 */
const SEASON_2016 = Array.from({ length: 60 }, (_, i) => `ipl/${980901 + 2 * i}.json`);
const IPL = cricsheetIds.competition("male", "Indian Premier League");
const IPL_2016 = cricsheetIds.season(IPL, "2016");
const KOHLI = cricsheetIds.participant("ba607b88");
const KUMAR = cricsheetIds.participant("2e81a32d");
const VOHRA = cricsheetIds.participant("c03e2850");
const MILLER = cricsheetIds.participant("d67d5f00");
const SATHISH = cricsheetIds.participant("626c5379");
const SHANKAR = cricsheetIds.participant("0994d0ae");

type Tally = {
  participantId: string;
  name: string;
  innings: number;
  dismissals: number;
  runs: number;
  balls: number;
  fours: number;
  sixes: number;
  conceded: number;
  bowled: number;
  wickets: number;
  catches: number;
  stumpings: number;
  runOuts: number;
};

const CREDITED = new Set(["bowled", "caught", "caught and bowled", "lbw", "stumped", "hit wicket"]);
const NOT_OUT = new Set(["retired hurt", "retired not out"]);

/**
 * Season totals per player, straight from the files: super overs skipped, players by register
 * id, a substitute fielder's dismissals credited to no one.
 */
function seasonTallies(files: readonly string[]): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  const tally = (match: RawMatch, name: string) => {
    const registerId = match.info.registry.people[name];
    if (!registerId) throw new Error(`${name} is not in the register`);
    const participantId = cricsheetIds.participant(registerId);
    let t = tallies.get(participantId);
    if (!t) {
      t = { participantId, name, innings: 0, dismissals: 0, runs: 0, balls: 0, fours: 0, sixes: 0 } as Tally;
      Object.assign(t, { conceded: 0, bowled: 0, wickets: 0 });
      Object.assign(t, { catches: 0, stumpings: 0, runOuts: 0 });
      tallies.set(participantId, t);
    }
    return t;
  };
  for (const file of files) {
    const match = readMatch(file);
    for (const innings of match.innings.filter((i) => !i.super_over)) {
      const batted = new Set<Tally>();
      for (const d of (innings.overs ?? []).flatMap((o) => o.deliveries)) {
        const batter = tally(match, d.batter);
        batted.add(batter).add(tally(match, d.non_striker));
        const bowler = tally(match, d.bowler);
        const wides = d.extras?.wides ?? 0;
        const noBalls = d.extras?.noballs ?? 0;
        batter.runs += d.runs.batter;
        if (!wides) batter.balls += 1;
        if (d.runs.batter === 4 && !d.runs.non_boundary) batter.fours += 1;
        if (d.runs.batter === 6 && !d.runs.non_boundary) batter.sixes += 1;
        bowler.conceded += d.runs.batter + wides + noBalls;
        if (!wides && !noBalls) bowler.bowled += 1;
        for (const w of d.wickets ?? []) {
          const out = tally(match, w.player_out);
          batted.add(out);
          if (!NOT_OUT.has(w.kind)) out.dismissals += 1;
          if (CREDITED.has(w.kind)) bowler.wickets += 1;
          if (w.kind === "caught and bowled") bowler.catches += 1;
          for (const f of w.fielders ?? []) {
            if (!f.name || f.substitute) continue;
            const fielder = tally(match, f.name);
            if (w.kind === "caught") fielder.catches += 1;
            if (w.kind === "stumped") fielder.stumpings += 1;
            if (w.kind === "run out") fielder.runOuts += 1;
          }
        }
      }
      for (const t of batted) t.innings += 1;
    }
  }
  return tallies;
}

/** a/b against c/d, exactly. */
const fraction = (a: number, b: number, c: number, d: number) => a * d - c * b;
const byId = (a: Tally, b: Tally) => (a.participantId < b.participantId ? -1 : 1);
/** 600·c/b (runs per over ×100) rounded half away from zero, in whole numbers. */
const economy = (t: Tally) => Math.floor((1200 * t.conceded + t.bowled) / (2 * t.bowled)) / 100;

type Row = {
  rank: number;
  participantId: string;
  participantName: string;
  value: number;
  figures: Record<string, number>;
};
type Board = {
  data: Row[];
  metric: string;
  scope: Record<string, unknown>;
  qualification: { description: string; figure: string; minimum: number };
  ranking: { order: string; tieBreaks: string[] };
  limit: number;
};

let r: ReadApi;
const tallies = seasonTallies(SEASON_2016);
beforeAll(async () => {
  r = await openReadApi();
  await importMatches(r.world, SEASON_2016);
}, 120_000);
afterAll(() => r?.close());

const board = async (query: string) => {
  const res = await r.api.get(`/api/v1/statistics/leaderboards?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Board;
};
const season = `scope=season&seasonId=${IPL_2016}`;

describe("GET /api/v1/statistics/leaderboards over IPL 2016", () => {
  it("most_runs: every rank, value and figure as the raw files give them, V Kohli's 973 first", async () => {
    // No two of the first 50 are level on every figure the rule compares, so ranks run 1 to 50.
    const expected = [...tallies.values()]
      .filter((t) => t.runs > 0)
      .sort(
        (a, b) =>
          b.runs - a.runs || a.balls - b.balls || a.dismissals - b.dismissals || a.innings - b.innings || byId(a, b),
      )
      .slice(0, 50);
    const table = await board(`${season}&metric=most_runs&limit=50`);
    expect(
      table.data.map((row) => [row.rank, row.participantId, row.value, row.figures.runs, row.figures.balls]),
    ).toEqual(expected.map((t, i) => [i + 1, t.participantId, t.runs, t.runs, t.balls]));
    expect(table.data[0]).toMatchObject({
      participantId: KOHLI,
      participantName: "V Kohli",
      value: 973,
      figures: { innings: 16, notOuts: 4, dismissals: 12, average: 81.08, strikeRate: 152.03, highestScore: "113" },
    });
    expect(table).toMatchObject({
      metric: "most_runs",
      scope: {
        type: "season",
        id: IPL_2016,
        name: "2016",
        competition: { competitionId: IPL, name: "Indian Premier League" },
      },
      qualification: { figure: "runs", minimum: 1 },
      ranking: {
        order: "descending",
        tieBreaks: [
          "fewer balls faced (higher strike rate)",
          "fewer dismissals (higher batting average)",
          "fewer batting innings",
          "participant name ascending (rank shared)",
          "participant id ascending (rank shared)",
        ],
      },
      limit: 50,
    });
  });

  it("most_runs: M Vohra above DA Miller on 161 off 131 balls each, out 7 times against 10", async () => {
    const table = await board(`${season}&metric=most_runs&limit=50`);
    const row = (id: string) => table.data.find((r) => r.participantId === id) as Row;
    const [vohra, miller] = [row(VOHRA), row(MILLER)];
    expect([vohra.figures, miller.figures]).toMatchObject([
      { runs: 161, balls: 131, dismissals: 7 },
      { runs: 161, balls: 131, dismissals: 10 },
    ]);
    expect(miller.rank).toBe(vohra.rank + 1);
    expect(table.data.indexOf(miller)).toBe(table.data.indexOf(vohra) + 1);
  });

  it("best_economy_rate: only bowlers of 120 balls or more, every rank and rounded rate as the raw files give them", async () => {
    const expected = [...tallies.values()]
      .filter((t) => t.bowled >= 120)
      .sort(
        (a, b) =>
          fraction(a.conceded, a.bowled, b.conceded, b.bowled) ||
          b.bowled - a.bowled ||
          b.wickets - a.wickets ||
          byId(a, b),
      )
      .slice(0, 50);
    expect(expected.length).toBeGreaterThan(40);
    const table = await board(`${season}&metric=best_economy_rate&limit=50`);
    expect(
      table.data.map((row) => [row.rank, row.participantId, row.value, row.figures.runsConceded, row.figures.balls]),
    ).toEqual(expected.map((t, i) => [i + 1, t.participantId, economy(t), t.conceded, t.bowled]));
    expect(table.qualification).toEqual({
      figure: "ballsBowled",
      minimum: 120,
      description: "At least 120 balls bowled (20 six-ball overs) in the season.",
    });
    expect(table.ranking.tieBreaks.slice(0, 3)).toEqual(["more balls bowled", "more wickets", "fewer bowling innings"]);
  });

  it("most_wickets, most_fours and most_sixes lead with the season's published leaders", async () => {
    const leader = async (metric: string) => (await board(`${season}&metric=${metric}&limit=1`)).data[0];
    expect(await leader("most_wickets")).toMatchObject({
      participantId: KUMAR,
      value: 23,
      figures: { wickets: 23, bestFigures: "4/29", average: 21.3, economy: 7.42 },
    });
    const most = (pick: (t: Tally) => number) =>
      [...tallies.values()].sort((a, b) => pick(b) - pick(a) || byId(a, b))[0] as Tally;
    expect(await leader("most_sixes")).toMatchObject({ participantId: most((t) => t.sixes).participantId, value: 38 });
    expect((await leader("most_fours"))?.participantId).toBe(most((t) => t.fours).participantId);
  });

  it("every metric lists only qualified players, in its order, ranked 1 to n, 10 by default", async () => {
    const minimum: Record<string, [string, number]> = {
      highest_batting_average: ["innings", 5],
      highest_strike_rate: ["balls", 100],
      best_bowling_average: ["wickets", 10],
      best_economy_rate: ["balls", 120],
      best_bowling_strike_rate: ["wickets", 10],
    };
    for (const metric of METRICS) {
      const table = await board(`${season}&metric=${metric}`);
      expect(table.data, metric).toHaveLength(10);
      expect(table.data.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const values = table.data.map((row) => row.value);
      const sorted = [...values].sort((a, b) => (table.ranking.order === "descending" ? b - a : a - b));
      expect(values, metric).toEqual(sorted);
      const [figure, least] = minimum[metric] ?? ["", 0];
      for (const row of table.data) {
        expect(row.value, metric).toBeGreaterThan(0);
        if (figure) expect(row.figures[figure], `${metric} ${row.participantName}`).toBeGreaterThanOrEqual(least);
      }
    }
    const average = await board(`${season}&metric=highest_batting_average`);
    expect(average.qualification.description).toBe(
      "At least 5 batting innings in the season, and at least one dismissal.",
    );
    expect(average.data.every((row) => (row.figures.dismissals ?? 0) > 0)).toBe(true);
  });

  it("ranks over a competition with the competition's minimums", async () => {
    const table = await board(`scope=competition&competitionId=${IPL}&metric=best_bowling_average&limit=50`);
    expect(table.scope).toEqual({ type: "competition", id: IPL, name: "Indian Premier League", competition: null });
    expect(table.qualification).toMatchObject({ figure: "wickets", minimum: 20 });
    expect(table.data.every((row) => (row.figures.wickets ?? 0) >= 20)).toBe(true);
    const runs = await board(`scope=competition&competitionId=${IPL}&metric=most_runs&limit=3`);
    expect(runs.data.map((row) => row.participantId)).toEqual(
      (await board(`${season}&metric=most_runs&limit=3`)).data.map((row) => row.participantId),
    );
  });

  it("answers 400 for bad combinations, metrics and limits, and 404 for a scope that does not exist", async () => {
    const leaderboards = (query: string) => r.api.get(`/api/v1/statistics/leaderboards?${query}`);
    expect(invalidFields(await leaderboards("metric=most_runs"))).toEqual(["scope"]);
    expect(invalidFields(await leaderboards("scope=season&metric=most_runs"))).toEqual(["seasonId"]);
    expect(invalidFields(await leaderboards(`${season}&competitionId=${IPL}&metric=most_runs`))).toEqual([
      "competitionId",
    ]);
    expect(invalidFields(await leaderboards(`scope=competition&seasonId=${IPL_2016}&metric=most_runs`))).toEqual([
      "competitionId",
      "seasonId",
    ]);
    expect(invalidFields(await leaderboards(`scope=career&metric=most_runs`))).toEqual(["scope"]);
    expect(invalidFields(await leaderboards(`${season}`))).toEqual(["metric"]);
    expect(invalidFields(await leaderboards(`${season}&metric=most_catches`))).toEqual(["metric"]);
    for (const limit of ["0", "51", "1.5", "", "ten"])
      expect(invalidFields(await leaderboards(`${season}&metric=most_runs&limit=${limit}`)), limit).toEqual(["limit"]);
    expect(invalidFields(await leaderboards(`${season}&metric=most_runs&sort=name`))).toEqual(["sort"]);
    expect((await board(`${season}&metric=most_runs&limit=50`)).data).toHaveLength(50);

    for (const query of [
      "scope=season&seasonId=no-such-season&metric=most_runs",
      "scope=competition&competitionId=no-such-competition&metric=most_runs",
      `scope=season&seasonId=${IPL}&metric=most_runs`,
    ]) {
      const res = await leaderboards(query);
      expect(res.status, query).toBe(404);
      expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
  });
});

describe("GET /api/v1/participants/{participantId}/statistics", () => {
  type Aggregate = {
    statisticId: string;
    scope: { type: string; id: string | null; name: string | null };
    matches: number;
    batting: Record<string, unknown>;
    bowling: Record<string, unknown>;
    fielding: Record<string, number>;
  };
  const aggregates = async (participantId: string, query = "") => {
    const res = await r.api.get(`/api/v1/participants/${participantId}/statistics${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as { data: Aggregate[] }).data;
  };

  it("lists career, competition and season aggregates, named, each readable by its statisticId", async () => {
    const all = await aggregates(KOHLI);
    expect(all.map((a) => [a.statisticId, a.scope.type, a.scope.name])).toEqual([
      ["career", "career", null],
      [`competition-${IPL}`, "competition", "Indian Premier League"],
      [`season-${IPL_2016}`, "season", "2016"],
    ]);
    for (const aggregate of all) {
      expect(aggregate.matches).toBe(16);
      expect(aggregate.batting).toMatchObject({
        innings: 16,
        notOuts: 4,
        dismissals: 12,
        runs: 973,
        balls: 640,
        highestScore: "113",
        average: 81.08,
        strikeRate: 152.03,
        fifties: 7,
        hundreds: 4,
        ducks: 1, // bowled for 0 in Qualifier 1
        fours: 83,
        sixes: 38,
      });
      const one = await r.api.get(`/api/v1/participants/${KOHLI}/statistics/${aggregate.statisticId}`);
      expect(one.status).toBe(200);
      expect((one.body as { data: Aggregate }).data).toEqual(aggregate);
    }
    expect(all[2]).toMatchObject({
      participant: { participantId: KOHLI, name: "V Kohli" },
      scope: { id: IPL_2016, competition: { competitionId: IPL, name: "Indian Premier League" } },
    });
  });

  it("gives bowling and fielding figures as the raw files give them", async () => {
    const [kumar] = await aggregates(KUMAR, `?scope=season&seasonId=${IPL_2016}`);
    const t = tallies.get(KUMAR) as Tally;
    expect(kumar?.bowling).toMatchObject({
      balls: t.bowled,
      runs: t.conceded,
      wickets: 23,
      bestFigures: "4/29",
      average: 21.3,
      economy: 7.42,
      fourWickets: 1,
      fiveWickets: 0,
    });
    const catcher = [...tallies.values()].sort((a, b) => b.catches - a.catches || byId(a, b))[0] as Tally;
    const [career] = await aggregates(catcher.participantId, "?scope=career");
    expect(career?.fielding).toEqual({
      catches: catcher.catches,
      stumpings: catcher.stumpings,
      runOuts: catcher.runOuts,
    });
  });

  it("credits a substitute fielder with neither the match nor the dismissal; the scorecard still names them", async () => {
    // R Sathish: named in 4 matches, and a substitute in 980963 (a catch and a run out) and
    // 981009 (two catches). V Shankar: a substitute only (catches in 980967 and 981015).
    const [sathish] = await aggregates(SATHISH, "?scope=career");
    const t = tallies.get(SATHISH) as Tally;
    expect(sathish).toMatchObject({ matches: 4, batting: { innings: t.innings, runs: t.runs } });
    expect(sathish?.fielding).toEqual({ catches: t.catches, stumpings: t.stumpings, runOuts: t.runOuts });
    expect(await aggregates(SHANKAR)).toEqual([]);

    const scorecard = await r.api.get(`/api/v1/fixtures/${cricsheetIds.fixture("980963")}/statistics`);
    expect(scorecard.text).toContain('"howOut":"c sub (R Sathish) b ');
  });

  it("filters by scope, and by one season or competition", async () => {
    expect((await aggregates(KOHLI, "?scope=season")).map((a) => a.statisticId)).toEqual([`season-${IPL_2016}`]);
    expect((await aggregates(KOHLI, "?scope=career")).map((a) => a.statisticId)).toEqual(["career"]);
    expect((await aggregates(KOHLI, `?scope=competition&competitionId=${IPL}`)).map((a) => a.statisticId)).toEqual([
      `competition-${IPL}`,
    ]);
    expect(await aggregates(KOHLI, "?scope=season&seasonId=another-season")).toEqual([]);
  });

  it("answers 400 for an id without its scope and 404 for an unknown participant or aggregate", async () => {
    const path = `/api/v1/participants/${KOHLI}/statistics`;
    expect(invalidFields(await r.api.get(`${path}?seasonId=${IPL_2016}`))).toEqual(["seasonId"]);
    expect(invalidFields(await r.api.get(`${path}?scope=season&competitionId=${IPL}`))).toEqual(["competitionId"]);
    expect(invalidFields(await r.api.get(`${path}?scope=decade`))).toEqual(["scope"]);
    expect(invalidFields(await r.api.get(`${path}?includeContributors=true`))).toEqual(["includeContributors"]);
    for (const missing of [
      "/api/v1/participants/nobody/statistics",
      "/api/v1/participants/nobody/statistics/career",
      `${path}/season-another-season`,
      `${path}/competition-`,
      `${path}/lifetime`,
    ]) {
      const res = await r.api.get(missing);
      expect(res.status, missing).toBe(404);
    }
  });
});
