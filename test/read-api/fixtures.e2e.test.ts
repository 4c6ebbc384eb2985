import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  aCompetition,
  aFixture,
  aSeason,
  aTeam,
  type FixtureBuilder,
  type TeamBuilder,
} from "../support/cricket-builders.js";
import { everyPage, invalidFields, keyOf, openReadApi, type ReadApi, rekeyed } from "../support/read-api.js";

type ApiFixture = { fixtureId: string; startDate: string } & Record<string, unknown>;

const ipl = aCompetition({ name: "Indian Premier League" });
const wpl = aCompetition({ name: "Women's Premier League" });
const ipl2024 = aSeason(ipl, { label: "2024" });
const ipl2023 = aSeason(ipl, { label: "2023" });
const wpl2024 = aSeason(wpl, { label: "2023/24" });
const [mi, csk, rcb] = [
  aTeam({ name: "Mumbai Indians" }),
  aTeam({ name: "Chennai Super Kings" }),
  aTeam({ name: "RCB" }),
];
const [miW, dcW] = [
  aTeam({ name: "Mumbai Indians Women", gender: "female" }),
  aTeam({ name: "Delhi Capitals Women", gender: "female" }),
];

const day = (d: number) => `2024-04-${String(d).padStart(2, "0")}`;
const pairs: [TeamBuilder, TeamBuilder][] = [
  [mi as TeamBuilder, csk as TeamBuilder],
  [csk as TeamBuilder, rcb as TeamBuilder],
  [rcb as TeamBuilder, mi as TeamBuilder],
];
const fixtures: FixtureBuilder[] = [
  // Two fixtures on most days, so the id decides ties.
  ...Array.from({ length: 10 }, (_, i) => {
    const [home, away] = pairs[i % 3] as [TeamBuilder, TeamBuilder];
    return aFixture({ season: ipl2024, home, away, startDate: day(1 + Math.floor(i / 2)) }).withInnings({
      deliveries: 6,
    });
  }),
  ...Array.from({ length: 3 }, (_, i) =>
    aFixture({ season: ipl2023, home: mi, away: csk, startDate: `2023-05-0${i + 1}`, venue: null }),
  ),
  ...Array.from({ length: 3 }, (_, i) =>
    aFixture({ season: wpl2024, home: miW, away: dcW, startDate: `2024-03-0${i + 1}`, gender: "female" }),
  ),
];
const qualifier = aFixture({ season: ipl2024, home: csk, away: rcb, startDate: "2024-05-21", stage: "Qualifier 1" });
const wplFinal = aFixture({
  season: wpl2024,
  home: miW,
  away: dcW,
  startDate: "2024-03-17",
  gender: "female",
  stage: "Final",
});
fixtures.push(qualifier, wplFinal);
const detailed = aFixture({
  season: ipl2024,
  home: mi,
  away: rcb,
  startDate: "2024-05-26",
  endDate: "2024-05-27",
  stage: "Final",
})
  .withInnings({ deliveries: 40, wicketEvery: 5 })
  .withInnings({ deliveries: 38 })
  .withOutcome();
fixtures.push(detailed);

const order = (list: FixtureBuilder[]) =>
  [...list].sort((a, b) => a.startDate.localeCompare(b.startDate) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
const idsOf = (list: FixtureBuilder[]) => order(list).map((f) => f.id);
const ids = (items: { fixtureId: string }[]) => items.map((f) => f.fixtureId);

let r: ReadApi;
beforeAll(async () => {
  r = await openReadApi();
  await r.world.given(...fixtures);
});
afterAll(() => r.close());

describe("GET /api/v1/fixtures", () => {
  it("pages through every fixture by start date then id, and backwards with sort=-startDate", async () => {
    expect(ids(await everyPage<ApiFixture>(r.api, "/api/v1/fixtures", 4))).toEqual(idsOf(fixtures));
    expect(ids(await everyPage<ApiFixture>(r.api, "/api/v1/fixtures?sort=-startDate", 3))).toEqual(
      idsOf(fixtures).reverse(),
    );
  });

  it.each([
    ["competitionId", () => `competitionId=${wpl.id}`, (f: FixtureBuilder) => f.competition === wpl],
    ["seasonId", () => `seasonId=${ipl2023.id}`, (f: FixtureBuilder) => f.season === ipl2023],
    ["competitorId", () => `competitorId=${rcb?.id}`, (f: FixtureBuilder) => f.home === rcb || f.away === rcb],
    ["gender", () => "gender=female", (f: FixtureBuilder) => f.home.gender === "female"],
    // A season by its label or display name: WPL "2023/24" started in 2024, so it is named "2024".
    ["season (label)", () => "season=2023/24", (f: FixtureBuilder) => f.season === wpl2024],
    ["season (display name)", () => "season=2024", (f: FixtureBuilder) => f.season === ipl2024 || f.season === wpl2024],
    [
      "season and competitionId",
      () => `season=2024&competitionId=${ipl.id}`,
      (f: FixtureBuilder) => f.season === ipl2024,
    ],
    ["stage (any case)", () => "stage=FINAL", (f: FixtureBuilder) => f.stage === "Final"],

    [
      "startDateFrom and startDateTo (inclusive)",
      () => `startDateFrom=${day(2)}&startDateTo=${day(4)}`,
      (f: FixtureBuilder) => f.startDate >= day(2) && f.startDate <= day(4),
    ],
    [
      "combined",
      () => `competitorId=${mi?.id}&seasonId=${ipl2024.id}&startDateFrom=${day(3)}`,
      (f: FixtureBuilder) => (f.home === mi || f.away === mi) && f.season === ipl2024 && f.startDate >= day(3),
    ],
  ])("filters by %s, page after page", async (_name, query, keep) => {
    const expected = idsOf(fixtures.filter(keep));
    expect(expected.length).toBeGreaterThan(1);
    expect(ids(await everyPage<ApiFixture>(r.api, `/api/v1/fixtures?${query()}`, 2))).toEqual(expected);
  });

  it("finds one season's final by label and stage, and nothing for a season or stage nobody has", async () => {
    const found = async (query: string) => ids(await everyPage<ApiFixture>(r.api, `/api/v1/fixtures?${query}`, 2));
    expect(await found("season=2023/24&stage=final")).toEqual([wplFinal.id]);
    expect(await found(`season=2024&stage=Qualifier%201&competitionId=${ipl.id}`)).toEqual([qualifier.id]);
    expect(await found("season=2023&stage=final")).toEqual([]);
    expect(await found("season=1999")).toEqual([]);
    expect(await found("stage=Semi%20Final")).toEqual([]);
    for (const [name, value] of [
      ["season", ""],
      ["stage", "%20"],
      ["season", "x".repeat(21)],
    ] as const)
      expect(invalidFields(await r.api.get(`/api/v1/fixtures?${name}=${value}`))).toEqual([name]);
  });

  it("says so when a filter is given an id of another kind, and lists nothing for an id of nothing", async () => {
    const details = async (path: string) => {
      const res = await r.api.get(path);
      expect(res.status, res.text).toBe(400);
      return (res.body as { error: { details: { code: string; field: string; message: string }[] } }).error.details;
    };
    expect(await details(`/api/v1/fixtures?competitionId=${ipl2024.id}`)).toEqual([
      {
        code: "WRONG_KIND_OF_ID",
        field: "competitionId",
        message: "This is the id of a season, not of a competition: filter by seasonId",
      },
    ]);
    expect(await details(`/api/v1/fixtures?seasonId=${ipl2024.id}&competitorId=${detailed.id}`)).toEqual([
      { code: "WRONG_KIND_OF_ID", field: "competitorId", message: "This is the id of a fixture, not of a competitor" },
    ]);
    expect(await details(`/api/v1/seasons?competitionId=${mi.id}`)).toEqual([
      {
        code: "WRONG_KIND_OF_ID",
        field: "competitionId",
        message: "This is the id of a competitor, not of a competition",
      },
    ]);
    expect(await everyPage(r.api, "/api/v1/fixtures?competitionId=nothing", 5)).toEqual([]);
    // The right kind of id with nothing to show: an empty page, not an error.
    expect(await everyPage(r.api, `/api/v1/fixtures?seasonId=${ipl2023.id}&gender=female`, 5)).toEqual([]);
  });

  it("answers invalid filters, sorts and cursors with 400 naming the parameter", async () => {
    // 0000-01-01 is a valid ISO date, but PostgreSQL has no year 0: the fuzz found it was a 500.
    for (const date of ["2024-02-30", "2024-4-1", "", "yesterday", "0000-01-01"]) {
      expect(invalidFields(await r.api.get(`/api/v1/fixtures?startDateFrom=${date}`))).toEqual(["startDateFrom"]);
      expect(invalidFields(await r.api.get(`/api/v1/fixtures?startDateTo=${date}`))).toEqual(["startDateTo"]);
    }
    expect(invalidFields(await r.api.get(`/api/v1/fixtures?startDateFrom=${day(5)}&startDateTo=${day(4)}`))).toEqual([
      "startDateTo",
    ]);
    expect(invalidFields(await r.api.get("/api/v1/fixtures?gender=mixed"))).toEqual(["gender"]);
    expect(invalidFields(await r.api.get("/api/v1/fixtures?sort=name"))).toEqual(["sort"]);
    expect(invalidFields(await r.api.get("/api/v1/fixtures?teamId=x&limit=0"))).toEqual(
      expect.arrayContaining(["teamId", "limit"]),
    );
    const first = await r.api.get("/api/v1/fixtures?limit=2&gender=male");
    const cursor = (first.body as { pagination: { nextCursor: string } }).pagination.nextCursor;
    expect(invalidFields(await r.api.get(`/api/v1/fixtures?limit=2&gender=female&cursor=${cursor}`))).toEqual([
      "cursor",
    ]);
    expect(
      invalidFields(await r.api.get(`/api/v1/fixtures?limit=2&gender=male&sort=-startDate&cursor=${cursor}`)),
    ).toEqual(["cursor"]);
    // A cursor whose date the server could not have issued (the fuzz found year 0000 was a 500).
    const [, id] = keyOf(cursor);
    expect(
      invalidFields(
        await r.api.get(`/api/v1/fixtures?limit=2&gender=male&cursor=${rekeyed(cursor, ["0000-01-01", id])}`),
      ),
    ).toEqual(["cursor"]);
  });
});

describe("GET /api/v1/fixtures/{fixtureId}", () => {
  const totals = (ordinal: number) => {
    const own = detailed.deliveries.filter((d) => d.inningsOrdinal === ordinal);
    const legal = own.filter((d) => !d.state.extras.wides && !d.state.extras.noBalls).length;
    return {
      runs: own.reduce((n, d) => n + d.state.runs.total, 0),
      wickets: own.flatMap((d) => d.state.wickets).filter((w) => w.kind !== "retired hurt").length,
      legalBalls: legal,
      overs: `${Math.floor(legal / 6)}.${legal % 6}`,
      deliveryCount: own.length,
    };
  };
  const ref = (team: TeamBuilder) => ({ competitorId: team.id, name: team.name });

  it("serves the fixture with names beside ids, toss, outcome, innings totals, squads and its version", async () => {
    const res = await r.api.get(`/api/v1/fixtures/${detailed.id}`);
    expect(res.status).toBe(200);
    const version = detailed.events().filter((e) => e.stream === detailed.stream).length - 1;
    const [home, away] = [detailed.home, detailed.away];
    expect(res.body).toEqual({
      data: {
        fixtureId: detailed.id,
        version,
        competition: { competitionId: ipl.id, name: "Indian Premier League" },
        season: { seasonId: ipl2024.id, label: "2024", name: "2024" },
        venue: {
          venueId: detailed.venue?.id,
          name: "Wankhede Stadium",
          city: "Mumbai",
          latitude: 18.9389,
          longitude: 72.8258,
        },
        competitors: [ref(home), ref(away)],
        startDate: "2024-05-26",
        endDate: "2024-05-27",
        matchType: "T20",
        teamType: "club",
        gender: "male",
        ballsPerOver: 6,
        oversPerInnings: 20,
        stage: "Final",
        matchNumber: null,
        toss: { winner: ref(home), decision: "bat" },
        outcome: {
          result: "won",
          winner: ref(home),
          by: { runs: 12 },
          method: null,
          tieBreak: null,
          tieBreakWinner: null,
          playersOfMatch: [{ participantId: home.players[0]?.id, name: home.players[0]?.name }],
        },
        innings: [0, 1].map((ordinal) => ({
          inningsId: detailed.innings[ordinal]?.inningsId,
          ordinal,
          battingCompetitor: ref(ordinal === 0 ? home : away),
          bowlingCompetitor: ref(ordinal === 0 ? away : home),
          superOver: false,
          declared: false,
          forfeited: false,
          target: ordinal === 1 ? { runs: 150, overs: 20 } : null,
          ...totals(ordinal),
        })),
        source: { sourceId: `cricsheet:match:${detailed.id}`, revision: 1 },
        squads: [home, away].map((team) => ({
          competitor: ref(team),
          participants: team.players.map((p) => ({ participantId: p.id, name: p.name })),
        })),
      },
    });
    expect(res.headers.get("ETag")).toMatch(new RegExp(`^"${version}-`));
  });

  it("answers 304 while the If-None-Match ETag is current, and 404 for an unknown fixture", async () => {
    const first = await r.api.get(`/api/v1/fixtures/${detailed.id}`);
    const etag = first.headers.get("ETag") as string;
    const again = await r.api.get(`/api/v1/fixtures/${detailed.id}`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await r.api.get(`/api/v1/fixtures/${detailed.id}`, { headers: { "If-None-Match": '"0-x"' } })).status).toBe(
      200,
    );
    expect((await r.api.get(`/api/v1/fixtures/${detailed.id}`, { headers: { "If-None-Match": "*" } })).status).toBe(
      304,
    );
    const missing = await r.api.get("/api/v1/fixtures/no-such-fixture");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("shows a fixture without a venue, toss-only, with no innings yet", async () => {
    const bare = fixtures.find((f) => f.venue === null) as FixtureBuilder;
    const res = await r.api.get(`/api/v1/fixtures/${bare.id}`);
    expect(res.body).toMatchObject({ data: { venue: null, outcome: null, innings: [], toss: { decision: "bat" } } });
  });
});

describe("GET /api/v1/participants/{participantId}/fixtures", () => {
  it("lists every fixture the participant was named for or appeared in, with how they took part", async () => {
    const opener = mi?.players[0];
    const tail = mi?.players[10]; // named in every squad, never reaches the crease in six balls
    const ofMi = fixtures.filter((f) => f.home === mi || f.away === mi);
    const served = await everyPage<ApiFixture & { participation: Record<string, unknown> }>(
      r.api,
      `/api/v1/participants/${opener?.id}/fixtures`,
      3,
    );
    expect(ids(served)).toEqual(idsOf(ofMi));
    const appearedIn = new Set(
      ofMi
        .filter((f) => f.deliveries.some((d) => JSON.stringify(d.state).includes(opener?.id as string)))
        .map((f) => f.id),
    );
    expect(appearedIn.size).toBeGreaterThan(0);
    for (const f of served)
      expect(f.participation).toEqual({
        competitor: { competitorId: mi?.id, name: "Mumbai Indians" },
        inSquad: true,
        appeared: appearedIn.has(f.fixtureId),
      });

    const backwards = await everyPage<ApiFixture>(
      r.api,
      `/api/v1/participants/${tail?.id}/fixtures?sort=-startDate`,
      5,
    );
    expect(ids(backwards)).toEqual(idsOf(ofMi).reverse());
  });

  it("answers 404 for an unknown participant and 400 for a cursor of another participant", async () => {
    expect((await r.api.get("/api/v1/participants/nobody/fixtures")).status).toBe(404);
    const first = await r.api.get(`/api/v1/participants/${mi?.players[0]?.id}/fixtures?limit=1`);
    const cursor = (first.body as { pagination: { nextCursor: string } }).pagination.nextCursor;
    expect(
      invalidFields(await r.api.get(`/api/v1/participants/${mi?.players[1]?.id}/fixtures?limit=1&cursor=${cursor}`)),
    ).toEqual(["cursor"]);
  });
});
