import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aCompetition, aFixture, aParticipant, aSeason, aTeam } from "../support/cricket-builders.js";
import { everyPage, invalidFields, keyOf, openReadApi, type ReadApi, rekeyed } from "../support/read-api.js";

const competitions = [
  aCompetition({ name: "Indian Premier League", alternativeNames: ["IPL"] }),
  aCompetition({ name: "ICC World Twenty20", alternativeNames: ["World T20", "ICC Men's T20 World Cup"] }),
  aCompetition({ name: "big bash league" }),
  aCompetition({ name: "Women's Premier League" }),
  aCompetition({ name: "County Championship" }),
  aCompetition({ name: "The 100% Cup_Final" }),
];
const [ipl, worldT20] = competitions as [(typeof competitions)[0], (typeof competitions)[0]];
const seasons = {
  s2008: aSeason(ipl, { label: "2007/08" }),
  s2020: aSeason(ipl, { label: "2020/21" }),
  s2019: aSeason(ipl, { label: "2019" }),
  empty: aSeason(ipl, { label: "2030" }),
  wc: aSeason(worldT20, { label: "2021/22" }),
};
const saini = aParticipant({ name: "NA Saini", alternativeNames: ["Navdeep Saini"] });
const players = {
  kohli: aParticipant({ name: "V Kohli" }),
  vivek: aParticipant({ name: "Vivek Kohli" }),
  viratSingh: aParticipant({ name: "Virat Singh" }),
  dhoni: aParticipant({ name: "MS Dhoni" }),
  orsted: aParticipant({ name: "Zoë Ørsted-Núñez" }),
};
const capitals = aTeam({ name: "Delhi Daredevils", alternativeNames: ["Delhi Capitals"] });

const byName = <T extends { name: string }>(items: T[]) =>
  [...items].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));

describe("competitions, seasons, competitors and participants", () => {
  let r: ReadApi;
  beforeAll(async () => {
    r = await openReadApi();
    await r.world.given(
      ...competitions,
      saini,
      ...Object.values(players),
      aFixture({ season: seasons.s2008, startDate: "2008-04-18", home: capitals }),
      aFixture({ season: seasons.s2008, startDate: "2008-06-01" }),
      aFixture({ season: seasons.s2020, startDate: "2020-09-19" }),
      aFixture({ season: seasons.s2020, startDate: "2021-04-09", endDate: "2021-04-10" }),
      aFixture({ season: seasons.s2019, startDate: "2019-03-23" }),
      aFixture({ season: seasons.wc, startDate: "2021-10-17" }),
      seasons.empty,
    );
  });
  afterAll(() => r.close());

  it("lists competitions by name, case-insensitively, then id, in pages and backwards", async () => {
    const names = byName(competitions).map((c) => c.id);
    expect(
      (await everyPage<{ competitionId: string }>(r.api, "/api/v1/competitions", 2)).map((c) => c.competitionId),
    ).toEqual(names);
    const backwards = await everyPage<{ competitionId: string }>(r.api, "/api/v1/competitions?sort=-name", 3);
    expect(backwards.map((c) => c.competitionId)).toEqual([...names].reverse());
  });

  it("filters competitions by the words of any spelling, in any order, case aside", async () => {
    const found = async (name: string) =>
      (
        await everyPage<{ competitionId: string }>(r.api, `/api/v1/competitions?name=${encodeURIComponent(name)}`, 10)
      ).map((c) => c.competitionId);
    const cup = competitions.at(-1)?.id;
    expect(await found("ipl")).toEqual([ipl.id]);
    expect(await found("t20 WORLD")).toEqual([worldT20.id]);
    expect(await found("men s t20 world")).toEqual([worldT20.id]);
    expect((await found("premier")).length).toBe(2);
    expect(await found("premier women")).toEqual([competitions[3]?.id]);
    // A word matches the start of a word, not its middle, and every word must match.
    expect(await found("emier")).toEqual([]);
    expect(await found("premier bash")).toEqual([]);
    // Punctuation separates words and matches nothing itself; LIKE wildcards are not wild.
    expect(await found("% CUP_f")).toEqual([cup]);
    expect(await found("100%")).toEqual([cup]);
    expect(await found("p_e")).toEqual([]);
    expect(await found("%")).toEqual([]);
    expect(await found("_")).toEqual([]);
    // Under three characters there is no trigram to look up: the same answers, found by a scan.
    expect(await found("ip")).toEqual([ipl.id]);
    expect(await found("b b")).toEqual([competitions[2]?.id]);
    expect(invalidFields(await r.api.get("/api/v1/competitions?name="))).toEqual(["name"]);
  });

  it("finds participants by full names where the source has initials, in any order, accents aside", async () => {
    const found = async (name: string) =>
      (
        await everyPage<{ participantId: string }>(r.api, `/api/v1/participants?name=${encodeURIComponent(name)}`, 10)
      ).map((p) => p.participantId);
    for (const name of ["virat kohli", "Kohli Virat", "VIRAT KOH"])
      expect(await found(name), name).toEqual([players.kohli.id]);
    // A word starts a word: "v" starts "Vivek" as well as being V Kohli's initial.
    for (const name of ["kohli", "V Kohli", "v. kohli"])
      expect(await found(name), name).toEqual([players.kohli.id, players.vivek.id]);
    // Found first, then ordered and paged: one a page, either way.
    const paged = async (query: string) =>
      (await everyPage<{ participantId: string }>(r.api, `/api/v1/participants?${query}`, 1)).map(
        (p) => p.participantId,
      );
    expect(await paged("name=kohli")).toEqual([players.kohli.id, players.vivek.id]);
    expect(await paged("name=kohli&sort=-name")).toEqual([players.vivek.id, players.kohli.id]);
    // An initial stands for a word only beside a word that matches in full.
    expect(await found("virat")).toEqual([players.viratSingh.id]);
    expect(await found("v")).toEqual([players.kohli.id, players.viratSingh.id, players.vivek.id]);
    expect(await found("mahendra singh dhoni")).toEqual([players.dhoni.id]);
    // An initial is never a word of its own: "s" and "singh" do not find MS Dhoni.
    expect(await found("s")).toEqual([saini.id, players.viratSingh.id]);
    expect(await found("singh")).toEqual([players.viratSingh.id]);
    expect(await found("ms dhoni")).toEqual([players.dhoni.id]);
    expect(await found("mahendra virat")).toEqual([]);
    for (const name of ["zoe orsted", "ZOË ØRSTED", "nunez", "Núñez zoe", "orsted-nunez"])
      expect(await found(name), name).toEqual([players.orsted.id]);
    expect(await found("navdeep saini")).toEqual([saini.id]);
  });

  it("serves one competition, and 404 for an unknown one", async () => {
    const res = await r.api.get(`/api/v1/competitions/${worldT20.id}`);
    expect(res.body).toEqual({
      data: {
        competitionId: worldT20.id,
        name: "ICC World Twenty20",
        alternativeNames: ["ICC Men's T20 World Cup", "World T20"],
        sourceIds: [`cricsheet:competition:${worldT20.id}`],
      },
    });
    expect((await r.api.get("/api/v1/competitions/nope")).status).toBe(404);
  });

  it("lists seasons by their first fixture's date, seasons without fixtures last, filtered by competition", async () => {
    const all = await everyPage<{ seasonId: string }>(r.api, "/api/v1/seasons", 2);
    expect(all.map((s) => s.seasonId)).toEqual(
      [seasons.s2008, seasons.s2019, seasons.s2020, seasons.wc, seasons.empty].map((s) => s.id),
    );
    const ofIpl = await everyPage<{ seasonId: string }>(
      r.api,
      `/api/v1/seasons?competitionId=${ipl.id}&sort=-startDate`,
      3,
    );
    expect(ofIpl.map((s) => s.seasonId)).toEqual(
      [seasons.empty, seasons.s2020, seasons.s2019, seasons.s2008].map((s) => s.id),
    );
  });

  it("serves a season with its source label, display name, dates and fixture count", async () => {
    const get = async (id: string) => ((await r.api.get(`/api/v1/seasons/${id}`)).body as { data: unknown }).data;
    expect(await get(seasons.s2008.id)).toEqual({
      seasonId: seasons.s2008.id,
      competition: { competitionId: ipl.id, name: "Indian Premier League" },
      label: "2007/08",
      name: "2008",
      startDate: "2008-04-18",
      endDate: "2008-06-01",
      fixtureCount: 2,
    });
    expect(await get(seasons.s2020.id)).toMatchObject({ label: "2020/21", name: "2020/21", endDate: "2021-04-10" });
    expect(await get(seasons.empty.id)).toMatchObject({
      name: "2030",
      startDate: null,
      endDate: null,
      fixtureCount: 0,
    });
    expect((await r.api.get("/api/v1/seasons/nope")).status).toBe(404);
  });

  it("serves competitors and participants, found by any of their names", async () => {
    const teams = await everyPage<{ competitorId: string }>(r.api, "/api/v1/competitors?name=capitals", 5);
    expect(teams.map((t) => t.competitorId)).toEqual([capitals.id]);
    expect((await r.api.get(`/api/v1/competitors/${capitals.id}`)).body).toEqual({
      data: {
        competitorId: capitals.id,
        name: "Delhi Daredevils",
        alternativeNames: ["Delhi Capitals"],
        teamType: "club",
        gender: "male",
        sourceIds: [`cricsheet:team:${capitals.id}`],
      },
    });
    const players = await everyPage<{ participantId: string }>(r.api, "/api/v1/participants?name=navdeep", 5);
    expect(players.map((p) => p.participantId)).toEqual([saini.id]);
    expect((await r.api.get(`/api/v1/participants/${saini.id}`)).body).toEqual({
      data: {
        participantId: saini.id,
        name: "NA Saini",
        alternativeNames: ["Navdeep Saini"],
        sourceIds: [`cricsheet:participant:${saini.id}`],
      },
    });
    expect((await r.api.get("/api/v1/competitors/nope")).status).toBe(404);
    expect((await r.api.get("/api/v1/participants/nope")).status).toBe(404);
  });

  it("pages through every participant exactly once", async () => {
    const all = await everyPage<{ participantId: string; name: string }>(r.api, "/api/v1/participants", 17);
    expect(new Set(all.map((p) => p.participantId)).size).toBe(all.length);
    expect(all.length).toBe(1 + Object.keys(players).length + 22 * 6);
    expect(all.map((p) => p.name.toLowerCase())).toEqual(all.map((p) => p.name.toLowerCase()).sort());
  });

  it("answers bad paging and unknown parameters with 400 naming them", async () => {
    for (const path of ["/api/v1/competitions", "/api/v1/seasons", "/api/v1/competitors", "/api/v1/participants"]) {
      expect(invalidFields(await r.api.get(`${path}?limit=500`))).toEqual(["limit"]);
      expect(invalidFields(await r.api.get(`${path}?cursor=%%%`))).toEqual(["cursor"]);
      expect(invalidFields(await r.api.get(`${path}?colour=red`))).toEqual(["colour"]);
    }
    const first = await r.api.get("/api/v1/competitions?limit=1");
    const cursor = (first.body as { pagination: { nextCursor: string } }).pagination.nextCursor;
    expect(invalidFields(await r.api.get(`/api/v1/competitions?limit=1&name=league&cursor=${cursor}`))).toEqual([
      "cursor",
    ]);
    expect(invalidFields(await r.api.get(`/api/v1/competitors?limit=1&cursor=${cursor}`))).toEqual(["cursor"]);
    // Text PostgreSQL cannot hold in a name's key: a 500 the fuzz found.
    const [, competitionId] = keyOf(cursor);
    for (const name of ["a\u0000b", "\ud800"])
      expect(
        invalidFields(await r.api.get(`/api/v1/competitions?limit=1&cursor=${rekeyed(cursor, [name, competitionId])}`)),
      ).toEqual(["cursor"]);
    // A season cursor dated in year 0000, which PostgreSQL cannot compare with (a 500 the fuzz found).
    const season = await r.api.get("/api/v1/seasons?limit=1");
    const seasonCursor = (season.body as { pagination: { nextCursor: string } }).pagination.nextCursor;
    const [, seasonId] = keyOf(seasonCursor);
    expect(
      invalidFields(
        await r.api.get(`/api/v1/seasons?limit=1&cursor=${rekeyed(seasonCursor, ["0000-01-01", seasonId])}`),
      ),
    ).toEqual(["cursor"]);
  });
});
