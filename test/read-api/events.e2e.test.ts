import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aFixture, type BuiltDelivery, type FixtureBuilder } from "../support/cricket-builders.js";
import { everyPage, invalidFields, keyOf, openReadApi, type ReadApi, rekeyed } from "../support/read-api.js";

type ApiEvent = { eventId: string; revision: number; runs: { total: number } } & Record<string, unknown>;

/** The public event the API must serve for a delivery the builder recorded. */
function expectedEvent(fixture: FixtureBuilder, d: BuiltDelivery) {
  const names = new Map([...fixture.home.players, ...fixture.away.players].map((p) => [p.id, p.name]));
  const s = d.state;
  return {
    eventId: d.eventId,
    fixtureId: fixture.id,
    inningsId: s.inningsId,
    inningsOrdinal: d.inningsOrdinal,
    sequenceNumber: d.sequenceNumber,
    revision: d.revision,
    overNumber: s.overNumber,
    positionInOver: s.positionInOver,
    ballNumber: s.ballNumber,
    strikerId: s.strikerId,
    strikerName: names.get(s.strikerId),
    nonStrikerId: s.nonStrikerId,
    nonStrikerName: names.get(s.nonStrikerId),
    bowlerId: s.bowlerId,
    bowlerName: names.get(s.bowlerId),
    runs: s.runs,
    extras: s.extras,
    wickets: s.wickets.map((w) => ({
      kind: w.kind,
      playerOutId: w.playerOutId,
      playerOutName: names.get(w.playerOutId),
      fielders: w.fielders.map((f) => ({ ...f, name: names.get(f.participantId) })),
    })),
  };
}

const involves = (d: BuiltDelivery, participantId: string) =>
  [d.state.strikerId, d.state.nonStrikerId, d.state.bowlerId].includes(participantId) ||
  d.state.wickets.some(
    (w) => w.playerOutId === participantId || w.fielders.some((f) => f.participantId === participantId),
  );

describe("GET /api/v1/fixtures/{fixtureId}/events", () => {
  let r: ReadApi;
  const fixture = aFixture()
    .withInnings({ deliveries: 70, wicketEvery: 6 })
    .withInnings({ deliveries: 64, wicketEvery: 7 });
  const other = aFixture().withInnings({ deliveries: 12 });
  const eventsPath = `/api/v1/fixtures/${fixture.id}/events`;
  const ids = (events: { eventId: string }[]) => events.map((e) => e.eventId);
  const expectedIds = (keep: (d: BuiltDelivery) => boolean = () => true) =>
    fixture
      .inOccurrenceOrder()
      .filter(keep)
      .map((d) => d.eventId);

  beforeAll(async () => {
    r = await openReadApi();
    await r.world.given(fixture, other);
    // A correction: served as the current revision, in the original's place.
    const corrected = fixture.deliveries[10] as BuiltDelivery;
    await r.world.append(fixture.correction(corrected.eventId, { runs: { offBat: 6, extras: 0, total: 6 } }));
  });
  afterAll(() => r.close());

  it("serves every current delivery exactly once, in occurrence order, across pages", async () => {
    const events = await everyPage<ApiEvent>(r.api, eventsPath, 7);
    expect(ids(events)).toEqual(expectedIds());
    expect(events).toEqual(fixture.inOccurrenceOrder().map((d) => expectedEvent(fixture, d)));
    expect(events.find((e) => e.eventId === fixture.deliveries[10]?.eventId)).toMatchObject({
      revision: 2,
      runs: { offBat: 6, extras: 0, total: 6 },
    });
  });

  it.each([
    ["inningsId", () => fixture.innings[1]?.inningsId as string, (d: BuiltDelivery) => d.inningsOrdinal === 1],
    [
      "competitorId (innings it batted)",
      () => fixture.away.id,
      (d: BuiltDelivery) => d.battingTeamId === fixture.away.id,
    ],
    ["overNumber", () => "3", (d: BuiltDelivery) => d.state.overNumber === 3],
    ["wicketKind", () => "caught", (d: BuiltDelivery) => d.state.wickets.some((w) => w.kind === "caught")],
  ])("pages under the %s filter and finds each matching delivery exactly once", async (filter, value, keep) => {
    const name = filter.split(" ")[0] as string;
    const events = await everyPage<ApiEvent>(r.api, `${eventsPath}?${name}=${encodeURIComponent(value())}`, 2);
    const expected = expectedIds(keep);
    expect(expected.length).toBeGreaterThan(2);
    expect(ids(events)).toEqual(expected);
  });

  it("finds a participant as striker, non-striker, bowler, player out or fielder", async () => {
    const keeper = fixture.away.players[0]?.id as string; // stumpings and run outs
    const bowler = fixture.away.players[7]?.id as string;
    const opener = fixture.home.players[0]?.id as string;
    for (const participantId of [keeper, bowler, opener]) {
      const events = await everyPage<ApiEvent>(r.api, `${eventsPath}?participantId=${participantId}`, 6);
      const expected = expectedIds((d) => involves(d, participantId));
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(events)).toEqual(expected);
    }
  });

  it("combines filters, matches wicket kinds case-insensitively, and finds nothing for an innings of no fixture", async () => {
    const inningsId = fixture.innings[0]?.inningsId as string;
    const combined = await everyPage<ApiEvent>(r.api, `${eventsPath}?inningsId=${inningsId}&overNumber=2`, 50);
    expect(ids(combined)).toEqual(expectedIds((d) => d.inningsOrdinal === 0 && d.state.overNumber === 2));
    const shouted = await everyPage<ApiEvent>(r.api, `${eventsPath}?wicketKind=CAUGHT`, 50);
    expect(ids(shouted)).toEqual(expectedIds((d) => d.state.wickets.some((w) => w.kind === "caught")));
    expect(await everyPage(r.api, `${eventsPath}?inningsId=${other.innings[0]?.inningsId}`, 10)).toEqual([]);
  });

  it("says so when a filter is given an id of another kind, in the list and both exports", async () => {
    const wrongKind = async (path: string) => {
      const res = await r.api.get(path);
      expect(res.status, res.text).toBe(400);
      return (res.body as { error: { details: { code: string; field: string; message: string }[] } }).error.details;
    };
    for (const path of [eventsPath, `${eventsPath}/export.json`, `${eventsPath}/export.csv`])
      expect(await wrongKind(`${path}?participantId=${fixture.home.id}`)).toEqual([
        {
          code: "WRONG_KIND_OF_ID",
          field: "participantId",
          message: "This is the id of a competitor, not of a participant: filter by competitorId",
        },
      ]);
    const batter = fixture.home.players[0]?.id as string;
    expect(await wrongKind(`${eventsPath}?inningsId=${fixture.id}&competitorId=${batter}`)).toEqual([
      { code: "WRONG_KIND_OF_ID", field: "inningsId", message: "This is the id of a fixture, not of an innings" },
      {
        code: "WRONG_KIND_OF_ID",
        field: "competitorId",
        message: "This is the id of a participant, not of a competitor: filter by participantId",
      },
    ]);
    // Ids of the right kind that match nothing here, or of nothing at all, still give an empty page.
    expect(await everyPage(r.api, `${eventsPath}?participantId=${other.home.players[0]?.id}`, 10)).toEqual([]);
    expect(await everyPage(r.api, `${eventsPath}?participantId=nobody`, 10)).toEqual([]);
  });

  it("refuses a cursor reused with other filters, for another fixture, or made up", async () => {
    const first = await r.api.get(`${eventsPath}?limit=5&overNumber=1`);
    const cursor = encodeURIComponent((first.body as { pagination: { nextCursor: string } }).pagination.nextCursor);
    expect((await r.api.get(`${eventsPath}?limit=5&overNumber=1&cursor=${cursor}`)).status).toBe(200);
    expect((await r.api.get(`${eventsPath}?limit=9&overNumber=1&cursor=${cursor}`)).status).toBe(200);
    expect(invalidFields(await r.api.get(`${eventsPath}?limit=5&overNumber=2&cursor=${cursor}`))).toEqual(["cursor"]);
    expect(invalidFields(await r.api.get(`${eventsPath}?limit=5&cursor=${cursor}`))).toEqual(["cursor"]);
    expect(
      invalidFields(await r.api.get(`/api/v1/fixtures/${other.id}/events?limit=5&overNumber=1&cursor=${cursor}`)),
    ).toEqual(["cursor"]);
    for (const junk of ["nope", "eyJzIjoxfQ", Buffer.from('{"s":"x","k":[0,"a","b"]}').toString("base64url")])
      expect(invalidFields(await r.api.get(`${eventsPath}?cursor=${junk}`))).toEqual(["cursor"]);
    // The right scope with a key the server never issues: an ordinal past PostgreSQL's integer was a 500 (found by the fuzz).
    const [ordinal, sequence, eventId] = keyOf(decodeURIComponent(cursor));
    for (const key of [
      [2 ** 31, sequence, eventId],
      [ordinal, 2 ** 31, eventId],
      [ordinal, sequence, "\u0000"],
    ])
      expect(
        invalidFields(
          await r.api.get(`${eventsPath}?limit=5&overNumber=1&cursor=${rekeyed(decodeURIComponent(cursor), key)}`),
        ),
      ).toEqual(["cursor"]);
  });

  it("answers bad parameters with 400 naming each one", async () => {
    for (const limit of ["0", "101", "abc", "", "1.5"])
      expect(invalidFields(await r.api.get(`${eventsPath}?limit=${limit}`))).toEqual(["limit"]);
    for (const over of ["-1", "32768", "1.5", "", "1e2", "two"])
      expect(invalidFields(await r.api.get(`${eventsPath}?overNumber=${over}`))).toEqual(["overNumber"]);
    expect((await r.api.get(`${eventsPath}?overNumber=32767`)).status).toBe(200);
    expect(invalidFields(await r.api.get(`${eventsPath}?wicketKind=`))).toEqual(["wicketKind"]);
    expect(invalidFields(await r.api.get(`${eventsPath}?over=3`))).toEqual(["over"]);
    expect(invalidFields(await r.api.get(`${eventsPath}?overNumber=1&overNumber=2`))).toEqual(["overNumber"]);
  });

  it("answers unknown fixtures and events with 404", async () => {
    expect((await r.api.get("/api/v1/fixtures/no-such-fixture/events")).status).toBe(404);
    // A cursor no fixture could have made does not hide that the fixture is unknown.
    expect((await r.api.get("/api/v1/fixtures/no-such-fixture/events?cursor=made-up")).status).toBe(404);
    const event = fixture.deliveries[0] as BuiltDelivery;
    for (const path of [
      `/api/v1/fixtures/no-such-fixture/events/${event.eventId}`,
      `/api/v1/fixtures/${other.id}/events/${event.eventId}`,
      `${eventsPath}/00000000-0000-4000-8000-000000000000`,
      `${eventsPath}/not-a-uuid`,
    ]) {
      const res = await r.api.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    }
  });

  it("serves one event's current revision with the fixture's version", async () => {
    const corrected = fixture.deliveries[10] as BuiltDelivery;
    const res = await r.api.get(`${eventsPath}/${corrected.eventId.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: expectedEvent(fixture, corrected), fixtureVersion: expect.any(Number) });
    expect((res.body as { data: ApiEvent }).data.revision).toBe(2);
  });

  it("stamps the list and an event with the fixture's version: ETag, 304 while current, new ETag after a new event", async () => {
    const versionNow = fixture.events().filter((e) => e.stream === fixture.stream).length;
    const list = await r.api.get(`${eventsPath}?limit=3`);
    const etag = list.headers.get("ETag") as string;
    expect(etag).toMatch(new RegExp(`^"${versionNow}-[A-Za-z0-9_-]{16}"$`));
    expect((list.body as { fixtureVersion: number }).fixtureVersion).toBe(versionNow);

    const unchanged = await r.api.get(`${eventsPath}?limit=3`, { headers: { "If-None-Match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe("");
    expect(unchanged.headers.get("ETag")).toBe(etag);
    expect(
      (await r.api.get(`${eventsPath}?limit=3`, { headers: { "If-None-Match": `"other", W/${etag}` } })).status,
    ).toBe(304);
    expect((await r.api.get(`${eventsPath}?limit=4`, { headers: { "If-None-Match": etag } })).status).toBe(200);

    const event = fixture.deliveries[0] as BuiltDelivery;
    const detail = await r.api.get(`${eventsPath}/${event.eventId}`);
    const detailEtag = detail.headers.get("ETag") as string;
    expect(
      (await r.api.get(`${eventsPath}/${event.eventId}`, { headers: { "If-None-Match": detailEtag } })).status,
    ).toBe(304);

    await r.world.append(fixture.moreDeliveries(1, 2));
    const changed = await r.api.get(`${eventsPath}?limit=3`, { headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect((changed.body as { fixtureVersion: number }).fixtureVersion).toBe(versionNow + 2);
    expect(
      (await r.api.get(`${eventsPath}/${event.eventId}`, { headers: { "If-None-Match": detailEtag } })).status,
    ).toBe(200);
  });
});
