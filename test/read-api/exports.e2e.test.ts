import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_EVENT_LIMIT } from "../../src/read-api/fixture-event-exports.js";
import { aFixture, aTeam, type BuiltDelivery } from "../support/cricket-builders.js";
import { readCsv } from "../support/csv.js";
import { invalidFields, openReadApi, type ReadApi } from "../support/read-api.js";

const HEADER =
  "fixtureId,schemaVersion,eventId,inningsId,sequenceNumber,overNumber,positionInOver,ballNumber,strikerId,nonStrikerId,bowlerId,runsOffBat,runsExtras,runsTotal,runsNonBoundary,extraWides,extraNoBalls,extraByes,extraLegByes,extraPenalty,wickets";

const SMALL_LIMIT = 60;
/** Exports are read and sent this many deliveries at a time: the files below span many pages. */
const SMALL_PAGE = 5;

describe("GET /api/v1/fixtures/{fixtureId}/events/export.json and export.csv", () => {
  let r: ReadApi;
  const fixture = aFixture().withInnings({ deliveries: 30, wicketEvery: 4 }).withInnings({ deliveries: 25 });
  const big = aFixture().withInnings({ deliveries: SMALL_LIMIT + 1 });
  /** A team named as a spreadsheet formula: its readable cells must not run. */
  const formula = aFixture({ home: aTeam({ name: '=HYPERLINK("http://evil.example")' }) }).withInnings({
    deliveries: 2,
  });
  const base = `/api/v1/fixtures/${fixture.id}/events`;

  beforeAll(async () => {
    r = await openReadApi({ exportEvents: SMALL_LIMIT, exportPage: SMALL_PAGE });
    await r.world.given(fixture, big, formula);
  });
  afterAll(() => r.close());

  it("exports every matching event as JSON, in occurrence order, as an attachment", async () => {
    const res = await r.api.get(`${base}/export.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="${fixture.id}-events.json"`);
    const body = res.body as { data: { eventId: string }[]; fixtureId: string; fixtureVersion: number; count: number };
    expect(body.data.map((e) => e.eventId)).toEqual(fixture.inOccurrenceOrder().map((d) => d.eventId));
    expect(body).toMatchObject({ fixtureId: fixture.id, count: 55 });
    const list = await r.api.get(`${base}?limit=1`);
    expect(body.data[0]).toEqual((list.body as { data: unknown[] }).data[0]);
    expect(body.fixtureVersion).toBe((list.body as { fixtureVersion: number }).fixtureVersion);

    // Sent a page at a time, the bytes are still those of one JSON.stringify of the whole.
    expect(res.text).toBe(JSON.stringify(body));
    // 25 events end on a full page (then an empty one); the first overs' do not.
    const firstOvers = fixture.deliveries.filter((d) => d.state.overNumber === 0).length;
    expect(firstOvers % SMALL_PAGE).not.toBe(0);
    for (const [filter, count] of [
      [`inningsId=${fixture.innings[1]?.inningsId}`, 25],
      ["overNumber=0", firstOvers],
    ] as const) {
      const filtered = await r.api.get(`${base}/export.json?${filter}`);
      expect((filtered.body as { count: number }).count, filter).toBe(count);
      expect(filtered.text).toBe(JSON.stringify(filtered.body));
    }
  });

  it("breaks a download off when the fixture changes under it, rather than finish it under the old ETag", async () => {
    const changing = aFixture().withInnings({ deliveries: 30 });
    await r.world.given(changing);
    for (const file of ["export.csv", "export.json"]) {
      const res = await r.app.request(`/api/v1/fixtures/${changing.id}/events/${file}`);
      expect(res.status).toBe(200);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      expect((await reader.read()).done).toBe(false);
      const target = changing.deliveries[file === "export.csv" ? 25 : 26] as BuiltDelivery;
      await r.world.append(changing.correction(target.eventId, { ballNumber: null }));
      const rest = (async () => {
        for (;;) if ((await reader.read()).done) return "finished";
      })();
      await expect(rest, file).rejects.toThrow(/changed during their export/);
      // Read again, the file is whole and shows the change, under a new ETag.
      const again = await r.api.get(`/api/v1/fixtures/${changing.id}/events/${file}`);
      expect(again.status).toBe(200);
      expect(again.headers.get("ETag")).not.toBe(res.headers.get("ETag"));
    }
  });

  it("exports CSV in the upload's exact column order, re-uploadable as it is", async () => {
    const res = await r.api.get(`${base}/export.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="${fixture.id}-events.csv"`);
    expect(res.text.split("\r\n")[0]).toBe(HEADER);
    const rows = readCsv(res.text) as Record<string, string>[];
    expect(rows.map((row) => row.eventId)).toEqual(fixture.inOccurrenceOrder().map((d) => d.eventId));

    const byId = new Map(rows.map((row) => [row.eventId, row]));
    const caught = fixture.deliveries.find((d) => d.state.wickets[0]?.kind === "caught") as BuiltDelivery;
    const wicketRow = byId.get(caught.eventId) as Record<string, string>;
    expect(JSON.parse(wicketRow.wickets as string)).toEqual(caught.state.wickets);
    expect(Object.keys(JSON.parse(wicketRow.wickets as string)[0])).toEqual(["kind", "playerOutId", "fielders"]);

    const wide = fixture.deliveries.find((d) => d.state.extras.wides) as BuiltDelivery;
    expect(byId.get(wide.eventId)).toEqual({
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      eventId: wide.eventId,
      inningsId: wide.state.inningsId,
      sequenceNumber: String(wide.sequenceNumber),
      overNumber: String(wide.state.overNumber),
      positionInOver: String(wide.state.positionInOver),
      ballNumber: wide.state.ballNumber,
      strikerId: wide.state.strikerId,
      nonStrikerId: wide.state.nonStrikerId,
      bowlerId: wide.state.bowlerId,
      runsOffBat: "0",
      runsExtras: "1",
      runsTotal: "1",
      runsNonBoundary: "",
      extraWides: "1",
      extraNoBalls: "",
      extraByes: "",
      extraLegByes: "",
      extraPenalty: "",
      wickets: "",
    });
    const nonBoundary = fixture.deliveries.find((d) => d.state.runs.nonBoundary) as BuiltDelivery;
    expect(byId.get(nonBoundary.eventId)?.runsNonBoundary).toBe("true");
  });

  it("adds readable columns on request: innings from 1, teams and players by name, each wicket's parts in cells", async () => {
    const res = await r.api.get(`${base}/export.csv?columns=readable`);
    expect(res.status).toBe(200);
    expect(res.text.split("\r\n")[0]).toBe(
      `${HEADER},innings,battingTeam,bowlingTeam,striker,nonStriker,bowler,wicketKind,playerOut,fielders`,
    );
    const rows = readCsv(res.text) as Record<string, string>[];
    // The upload columns are the default export's, row for row.
    const upload = readCsv((await r.api.get(`${base}/export.csv`)).text) as Record<string, string>[];
    const uploadColumns = HEADER.split(",");
    expect(rows.map((row) => uploadColumns.map((column) => row[column]))).toEqual(
      upload.map((row) => uploadColumns.map((column) => row[column])),
    );

    const name = new Map([...fixture.home.players, ...fixture.away.players].map((p) => [p.id, p.name]));
    const byId = new Map(rows.map((row) => [row.eventId, row]));
    for (const d of fixture.deliveries) {
      const innings = fixture.innings[d.inningsOrdinal] as (typeof fixture.innings)[number];
      const wicket = d.state.wickets[0];
      expect(byId.get(d.eventId)).toMatchObject({
        innings: String(d.inningsOrdinal + 1),
        battingTeam: innings.batting.name,
        bowlingTeam: innings.bowling.name,
        striker: name.get(d.state.strikerId),
        nonStriker: name.get(d.state.nonStrikerId),
        bowler: name.get(d.state.bowlerId),
        wicketKind: wicket?.kind ?? "",
        playerOut: wicket ? name.get(wicket.playerOutId) : "",
        fielders: (wicket?.fielders ?? [])
          .map((f) => `${name.get(f.participantId)}${f.substitute ? " (sub)" : ""}`)
          .join("; "),
      });
    }
    expect(rows.some((row) => row.fielders !== "")).toBe(true);

    // Its own ETag: a client holding the default file does not get a 304 for this one.
    const uploadTag = (await r.api.get(`${base}/export.csv`)).headers.get("ETag") as string;
    expect(res.headers.get("ETag")).not.toBe(uploadTag);
    const again = await r.api.get(`${base}/export.csv?columns=readable`, {
      headers: { "If-None-Match": res.headers.get("ETag") as string },
    });
    expect(again.status).toBe(304);
    expect(invalidFields(await r.api.get(`${base}/export.csv?columns=pretty`))).toEqual(["columns"]);
    expect(invalidFields(await r.api.get(`${base}/export.json?columns=readable`))).toEqual(["columns"]);
  });

  it("keeps a name that reads as a spreadsheet formula inert in the readable columns", async () => {
    const res = await r.api.get(`/api/v1/fixtures/${formula.id}/events/export.csv?columns=readable`);
    const rows = readCsv(res.text) as Record<string, string>[];
    expect(rows.map((row) => row.battingTeam)).toEqual(Array(2).fill(`'=HYPERLINK("http://evil.example")`));
    expect(rows[0]?.innings).toBe("1");
  });

  it("answers 304 to a current If-None-Match and a new ETag once the fixture changes", async () => {
    for (const file of ["export.csv", "export.json"]) {
      const first = await r.api.get(`${base}/${file}`);
      const etag = first.headers.get("ETag") as string;
      expect(etag, file).toMatch(/^"\d+-[A-Za-z0-9_-]{16}"$/);
      const again = await r.api.get(`${base}/${file}`, { headers: { "If-None-Match": etag } });
      expect(again.status, file).toBe(304);
      expect(again.text).toBe("");
    }
    const before = (await r.api.get(`${base}/export.csv`)).headers.get("ETag") as string;
    const target = fixture.deliveries[0] as BuiltDelivery;
    await r.world.append(fixture.correction(target.eventId, { ballNumber: null }));
    const after = await r.api.get(`${base}/export.csv`, { headers: { "If-None-Match": before } });
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(before);
    const row = (readCsv(after.text) as Record<string, string>[]).find((x) => x.eventId === target.eventId);
    expect(row?.ballNumber).toBe("");
  });

  it("refuses an export over the limit with 422 EXPORT_TOO_LARGE, and takes filters that narrow it", async () => {
    for (const file of ["export.json", "export.csv"]) {
      const res = await r.api.get(`/api/v1/fixtures/${big.id}/events/${file}`);
      expect(res.status, file).toBe(422);
      expect(res.body).toMatchObject({ error: { code: "EXPORT_TOO_LARGE" } });
      expect((await r.api.get(`/api/v1/fixtures/${big.id}/events/${file}?overNumber=0`)).status).toBe(200);
    }
    expect(EXPORT_EVENT_LIMIT).toBe(5000);
  });

  it("answers 404 for an unknown fixture and 400 for bad or unknown filters", async () => {
    for (const file of ["export.json", "export.csv"]) {
      expect((await r.api.get(`/api/v1/fixtures/nope/events/${file}`)).status).toBe(404);
      // The fixture is looked for before its filters are: a fixture's id given as a player's
      // is that filter's mistake only on a fixture that exists.
      const unknown = await r.api.get(`/api/v1/fixtures/nope/events/${file}?participantId=${fixture.id}`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ error: { code: "NOT_FOUND", message: "No such fixture" } });
      expect(invalidFields(await r.api.get(`${base}/${file}?overNumber=-3`))).toEqual(["overNumber"]);
      expect(invalidFields(await r.api.get(`${base}/${file}?limit=10`))).toEqual(["limit"]);
    }
  });
});
