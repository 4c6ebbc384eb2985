import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import type { InningsCard } from "../../src/statistics/innings-card.js";
import { testApp } from "../support/app.js";
import { contractClient } from "../support/contract.js";
import { readCsv } from "../support/csv.js";
import { invalidFields, openReadApi, type ReadApi } from "../support/read-api.js";
import { cardsOf } from "../support/scorecards.js";
import { importMatches } from "../support/statistics.js";

/**
 * Fixture statistics over real matches, checked against the scorecards the files imply
 * (`cardsOf`) and against published figures.
 */
const WELLINGTON = "tests/1322356.json"; // England 435/8 dec & 256; NZ 209 & 483 (f/o); NZ won by 1 run
const FINAL_2019 = "odi/1144530.json"; // World Cup final: tie, two super overs, England won on boundaries
const ADELAIDE = "tests/1223869.json"; // India 36/9, Shami retired not out
const NO_RESULT = "t20i/1298152.json"; // Zimbabwe v South Africa, T20 World Cup 2022: no result
const fixtureOf = (file: string) => cricsheetIds.fixture(file.replace(/^.*\/(\d+)\.json$/, "$1"));
const player = (registerId: string) => cricsheetIds.participant(registerId);

type Json = Record<string, unknown>;
type Line = Json & { participantId: string; statisticId: string; runs: number; balls: number };
type Innings = Json & {
  statisticId: string;
  inningsId: string;
  superOver: boolean;
  batting: { lines: Line[]; didNotBat: { name: string }[] };
  bowling: { lines: Line[] };
  extras: Json & { total: number; penalty: number };
  total: Json & { runs: number; wickets: number; overs: string; target: { runs: number } | null };
  fallOfWickets: { wickets: Json[] };
  partnerships: { partnerships: { batters: { participantId: string }[] }[] };
  overs: { overs: Json[] };
};
type Contributors = { count: number; eventIds: string[] };
type Document = { fixtureId: string; innings: Innings[]; result: Json; completeness: Json };
type Event = {
  eventId: string;
  inningsOrdinal: number;
  strikerId: string;
  bowlerId: string;
  runs: { offBat: number; total: number };
  extras: Record<string, number>;
  wickets: { kind: string; playerOutId: string }[];
};

const withoutIds = ({ statisticId: _s, type: _t, contributors: _c, ...rest }: Json) => rest;
const summary = (innings: Innings[]) =>
  innings.map((i) => `${i.total.runs}/${i.total.wickets} (${i.total.overs})${i.superOver ? " super over" : ""}`);

/** The public innings as the oracle scorecard implies it. */
function expectMatchesCard(innings: Innings, card: InningsCard) {
  expect(innings.batting.lines.map(withoutIds)).toEqual(card.batting);
  expect(innings.bowling.lines.map(withoutIds)).toEqual(
    card.bowling.map(({ legalBalls, ...line }) => ({ ...line, balls: legalBalls })),
  );
  expect(withoutIds(innings.extras)).toEqual(card.extras);
  // The card has the target the source gave; the statistics also infer a chase's (checked where it matters).
  const { target, ...total } = withoutIds(innings.total);
  expect(total).toEqual(card.total);
  if (card.target) expect(target).toEqual(card.target);
  expect(innings.fallOfWickets.wickets).toEqual(card.fallOfWickets);
  expect(
    innings.partnerships.partnerships.map((p) => ({ ...p, batters: p.batters.map((b) => b.participantId) })),
  ).toEqual(card.partnerships);
  expect(innings.overs.overs).toEqual(card.perOver);
  expect(innings.batting.didNotBat.map((p) => p.name)).toEqual(card.didNotBat);
}

let r: ReadApi;
/** The same app with an export limit of 1,000 events. */
let small: ReturnType<typeof contractClient>;
beforeAll(async () => {
  r = await openReadApi();
  await importMatches(r.world, [WELLINGTON, FINAL_2019, ADELAIDE, NO_RESULT]);
  small = contractClient(testApp(undefined, { sql: r.db.sql, limits: { exportEvents: 1000 } }).app);
}, 60_000);
afterAll(() => r?.close());

const base = (file: string) => `/api/v1/fixtures/${fixtureOf(file)}/statistics`;

describe("fixture statistics of real matches", () => {
  const documentOf = async (file: string, query = "") => {
    const res = await r.api.get(`${base(file)}${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as { data: Document; fixtureVersion: number };
  };

  it("Wellington 2023: every innings card as the file implies, the chase target and New Zealand's 1-run win", async () => {
    const { data, fixtureVersion } = await documentOf(WELLINGTON);
    expect(summary(data.innings)).toEqual(["435/8 (87.1)", "209/10 (53.2)", "483/10 (162.3)", "256/10 (74.2)"]);
    const cards = cardsOf(WELLINGTON);
    for (const [i, innings] of data.innings.entries()) expectMatchesCard(innings, cards[i] as InningsCard);
    expect(data.innings.map((i) => i.statisticId)).toEqual(["innings-0", "innings-1", "innings-2", "innings-3"]);
    expect(data.innings[0]?.total.declared).toBe(true);
    expect(data.innings[3]?.total.target).toEqual({ runs: 258, overs: null }); // 209 + 483 - 435 + 1
    expect(data.result).toMatchObject({
      statisticId: "result",
      result: "won",
      winner: { name: "New Zealand" },
      by: { runs: 1 },
      summary: "New Zealand won by 1 run",
    });
    expect(data.completeness).toEqual({
      statisticId: "completeness",
      type: "completeness",
      state: "complete",
      issues: [],
    });

    // Published: Brook 186 (176), Root 153* (224), Williamson 132 (282), Leach 61.3-12-157-5.
    const line = (innings: number, list: "batting" | "bowling", id: string) =>
      data.innings[innings]?.[list].lines.find((l) => l.participantId === player(id));
    expect(line(0, "batting", "4ae1755b")).toMatchObject({ runs: 186, balls: 176, dismissed: true });
    expect(line(0, "batting", "a343262c")).toMatchObject({
      runs: 153,
      balls: 224,
      dismissed: false,
      howOut: "not out",
    });
    expect(line(2, "bowling", "3987e390")).toMatchObject({ overs: "61.3", maidens: 12, runs: 157, wickets: 5 });
    expect(data.innings[0]?.batting.didNotBat).toEqual([{ participantId: expect.any(String), name: "JM Anderson" }]);

    const fixture = await r.api.get(`/api/v1/fixtures/${fixtureOf(WELLINGTON)}`);
    expect(fixtureVersion).toBe((fixture.body as { data: { version: number } }).data.version);
  });

  it("World Cup final 2019: super overs shown and flagged, and the tie won on the super over", async () => {
    const { data } = await documentOf(FINAL_2019);
    expect(summary(data.innings)).toEqual([
      "241/8 (50.0)",
      "241/10 (50.0)",
      "15/0 (1.0) super over",
      "15/1 (1.0) super over",
    ]);
    for (const [i, card] of cardsOf(FINAL_2019).entries()) expectMatchesCard(data.innings[i] as Innings, card);
    expect(data.innings[1]?.total.target?.runs).toBe(242);
    expect(data.innings[3]?.total.target?.runs).toBe(16);
    expect(data.result).toMatchObject({
      result: "tie",
      winner: null,
      tieBreak: "super over",
      tieBreakWinner: { name: "England" },
      summary: "Match tied; England won the super over",
    });
  });

  it("never counts the super over in a player's aggregates: Stokes's World Cup 2019 is his 84*", async () => {
    const season = cricsheetIds.season(cricsheetIds.competition("male", "ICC Cricket World Cup"), "2019");
    const superOver = (await documentOf(FINAL_2019)).data.innings[2]?.batting.lines.find(
      (l) => l.participantId === player("e087956b"),
    );
    expect(superOver?.runs).toBe(8);
    const res = await r.api.get(`/api/v1/participants/${player("e087956b")}/statistics/season-${season}`);
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: { batting: Json } }).data.batting).toMatchObject({
      innings: 1,
      runs: 84,
      notOuts: 1,
      highestScore: "84*",
    });
  });

  it("reads one statistic by id, with the innings it belongs to: Adelaide 2020, India 36/9", async () => {
    const stat = async (id: string) => {
      const res = await r.api.get(`${base(ADELAIDE)}/${id}`);
      expect(res.status, `${id}: ${res.text}`).toBe(200);
      return res.body as { data: Json; fixtureId: string; fixtureVersion: number; innings: Json | null };
    };
    const total = await stat("innings-2-total");
    expect(total.data).toMatchObject({ type: "total", runs: 36, wickets: 9, overs: "21.2" });
    expect(total.innings).toMatchObject({ statisticId: "innings-2", ordinal: 2, battingCompetitor: { name: "India" } });
    expect(total.fixtureId).toBe(fixtureOf(ADELAIDE));

    const shami = await stat(`innings-2-batter-${player("8cf9814c")}`);
    expect(shami.data).toMatchObject({
      type: "batter",
      dismissed: false,
      howOut: "retired not out",
      dismissalKind: null,
    });
    const hazlewood = await stat(`innings-2-bowler-${player("03806cf8")}`);
    expect(hazlewood.data).toMatchObject({ overs: "5.0", maidens: 3, runs: 8, wickets: 5 });
    const fow = await stat("innings-2-fall-of-wickets");
    expect((fow.data.wickets as { score: number; wicket: number }[]).map((f) => `${f.score}-${f.wicket}`)).toEqual([
      "7-1",
      "15-2",
      "15-3",
      "15-4",
      "15-5",
      "19-6",
      "26-7",
      "26-8",
      "31-9",
    ]);

    // Each statistic reads exactly as it appears in the whole document.
    const { data } = await documentOf(ADELAIDE);
    expect((await stat("innings-2")).data).toEqual(data.innings[2]);
    expect((await stat("innings-1-batting")).data).toEqual(data.innings[1]?.batting);
    expect((await stat("result")).data).toEqual(data.result);
    expect((await stat("completeness")).innings).toBeNull();
  });

  it("a no-result match: both innings, no winner, and the result in words", async () => {
    const { data } = await documentOf(NO_RESULT);
    expect(data.innings).toHaveLength(2);
    for (const [i, card] of cardsOf(NO_RESULT).entries()) expectMatchesCard(data.innings[i] as Innings, card);
    expect(data.result).toMatchObject({ result: "no result", winner: null, by: null, summary: "No result" });
    expect(data.completeness).toMatchObject({ state: "complete" });
  });

  it("answers 404 for an unknown fixture or statistic, and 400 for a bad or unknown parameter", async () => {
    expect((await r.api.get("/api/v1/fixtures/nope/statistics")).status).toBe(404);
    expect((await r.api.get("/api/v1/fixtures/nope/statistics/result")).status).toBe(404);
    for (const id of [
      "innings-4",
      "innings-0-wagon-wheel",
      `innings-0-batter-${player("13c35c9e")}`, // Southee bowled, not batted, in England's innings
      `innings-1-bowler-${player("4ae1755b")}`, // Brook did not bowl in it
      "Result",
    ]) {
      const res = await r.api.get(`${base(WELLINGTON)}/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
    expect(invalidFields(await r.api.get(`${base(WELLINGTON)}?includeContributors=yes`))).toEqual([
      "includeContributors",
    ]);
    expect(invalidFields(await r.api.get(`${base(WELLINGTON)}/result?contributors=true`))).toEqual(["contributors"]);
  });

  it("answers 304 while the ETag it sent is current", async () => {
    for (const path of [base(ADELAIDE), `${base(ADELAIDE)}/innings-0-total`]) {
      const first = await r.api.get(path);
      const etag = first.headers.get("ETag") as string;
      expect(etag).toMatch(
        new RegExp(`^"${(first.body as { fixtureVersion: number }).fixtureVersion}-[A-Za-z0-9_-]{16}"$`),
      );
      const again = await r.api.get(path, { headers: { "If-None-Match": etag } });
      expect(again.status).toBe(304);
      expect(again.text).toBe("");
    }
  });
});

describe("contributor traces", () => {
  const eventsOf = async (file: string, query = "") => {
    const res = await r.api.get(`/api/v1/fixtures/${fixtureOf(file)}/events/export.json${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.body as { data: Event[] }).data;
  };

  it("with includeContributors=true every statistic names the deliveries that make its figures", async () => {
    const res = await r.api.get(`${base(FINAL_2019)}?includeContributors=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Cache")).toBe("BYPASS");
    const data = (res.body as { data: Document & { result: { contributors: Contributors } } }).data;
    const events = await eventsOf(FINAL_2019);
    const byId = new Map(events.map((e) => [e.eventId, e]));
    const traced = (s: object) => {
      const c = (s as { contributors: Contributors }).contributors;
      expect(c.count).toBe(c.eventIds.length);
      return c.eventIds.map((id) => byId.get(id) as Event);
    };
    expect(data.result.contributors.eventIds).toEqual(events.map((e) => e.eventId));
    for (const innings of data.innings) {
      const own = (await eventsOf(FINAL_2019, `?inningsId=${innings.inningsId}`)).map((e) => e.eventId);
      expect(traced(innings).map((e) => e.eventId)).toEqual(own);
      for (const line of innings.batting.lines) {
        const faced = traced(line).filter((e) => e.strikerId === line.participantId && !e.extras.wides);
        expect(faced.length, line.statisticId).toBe(line.balls);
        expect(faced.reduce((n, e) => n + e.runs.offBat, 0)).toBe(line.runs);
      }
      for (const line of innings.bowling.lines) {
        const bowled = traced(line);
        expect(bowled.every((e) => e.bowlerId === line.participantId)).toBe(true);
        expect(bowled.filter((e) => !e.extras.wides && !e.extras.noBalls)).toHaveLength(line.balls);
        expect(bowled.reduce((n, e) => n + e.runs.offBat + (e.extras.wides ?? 0) + (e.extras.noBalls ?? 0), 0)).toBe(
          line.runs,
        );
      }
      const extras = traced(innings.extras).reduce((n, e) => n + e.runs.total - e.runs.offBat, 0);
      expect(extras).toBe(innings.extras.total - innings.extras.penalty);
      expect(traced(innings.fallOfWickets)).toHaveLength(innings.fallOfWickets.wickets.length);
    }
    const plain = await r.api.get(base(FINAL_2019));
    expect(plain.text).not.toContain('"contributors"');
  });

  it("traces one statistic and what it holds", async () => {
    const id = `innings-3-bowler-${player("13c35c9e")}`; // Southee, 20.1 overs, a wide
    const res = await r.api.get(`${base(WELLINGTON)}/${id}?includeContributors=true`);
    expect(res.status).toBe(200);
    const data = (res.body as { data: Line & { contributors: Contributors } }).data;
    expect(data.contributors.count).toBe(122);
    const card = await r.api.get(`${base(WELLINGTON)}/innings-0-batting?includeContributors=true`);
    const batting = (card.body as { data: { contributors: Contributors; lines: { contributors: Contributors }[] } })
      .data;
    expect(batting.contributors.count).toBe(525);
    expect(batting.lines.every((l) => l.contributors.count > 0)).toBe(true);
  });

  it("exports a statistic's contributing events as JSON and as CSV", async () => {
    const id = `innings-3-bowler-${player("13c35c9e")}`;
    const json = await r.api.get(`${base(WELLINGTON)}/${id}/events/export.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${fixtureOf(WELLINGTON)}-${id}-events.json"`,
    );
    const body = json.body as { data: Event[]; count: number; statisticId: string; fixtureVersion: number };
    expect(body).toMatchObject({ count: 122, statisticId: id });
    expect(body.data.every((e) => e.bowlerId === player("13c35c9e"))).toBe(true);
    const southee = (await eventsOf(WELLINGTON, `?participantId=${player("13c35c9e")}`)).filter(
      (e) => e.bowlerId === player("13c35c9e") && e.inningsOrdinal === 3,
    );
    expect(body.data).toEqual(southee);

    const csv = await r.api.get(`${base(WELLINGTON)}/${id}/events/export.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const rows = readCsv(csv.text) as Record<string, string>[];
    expect(rows.map((row) => row.eventId)).toEqual(body.data.map((e) => e.eventId));
    expect(csv.headers.get("ETag")).toMatch(new RegExp(`^"${body.fixtureVersion}-`));
    const again = await r.api.get(`${base(WELLINGTON)}/${id}/events/export.csv`, {
      headers: { "If-None-Match": csv.headers.get("ETag") as string },
    });
    expect(again.status).toBe(304);

    const fow = await r.api.get(`${base(WELLINGTON)}/innings-3-fall-of-wickets/events/export.json`);
    const dismissals = (fow.body as { data: Event[] }).data;
    expect(dismissals).toHaveLength(10);
    expect(dismissals.every((e) => e.wickets.length > 0)).toBe(true);
  });

  it("refuses a trace over the export limit with 422 EXPORT_TOO_LARGE", async () => {
    // The whole Test is 2,281 deliveries; New Zealand's follow-on 985.
    for (const file of ["export.json", "export.csv"]) {
      const res = await small.get(`${base(WELLINGTON)}/result/events/${file}`);
      expect(res.status, file).toBe(422);
      expect(res.body).toMatchObject({ error: { code: "EXPORT_TOO_LARGE" } });
      expect((await small.get(`${base(WELLINGTON)}/innings-2/events/${file}`)).status).toBe(200);
    }
    const traced = await small.get(`${base(WELLINGTON)}?includeContributors=true`);
    expect(traced.status).toBe(422);
    expect((await small.get(`${base(WELLINGTON)}/innings-2-total?includeContributors=true`)).status).toBe(200);
    expect((await r.api.get(`${base(WELLINGTON)}/result/events/export.json`)).body).toMatchObject({ count: 2281 });
  });

  it("answers 404 for an unknown fixture or statistic and 400 for any query parameter", async () => {
    expect((await r.api.get("/api/v1/fixtures/nope/statistics/result/events/export.json")).status).toBe(404);
    expect((await r.api.get(`${base(WELLINGTON)}/innings-9/events/export.csv`)).status).toBe(404);
    expect(invalidFields(await r.api.get(`${base(WELLINGTON)}/result/events/export.json?inningsId=x`))).toEqual([
      "inningsId",
    ]);
  });
});
