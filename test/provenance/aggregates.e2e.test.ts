import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { openWithMatch } from "../support/cricsheet-packages.js";
import type { PublicEvent, SubmissionApi } from "../support/submissions.js";

/**
 * Provenance of participant aggregates, and so of leaderboard rows, over HTTP on a real IPL
 * match (1082591, 2017): the deliveries traced for a row's part of the figures are exactly
 * the ones those figures are computed from (the row's value is summed back from them),
 * page by page, each with its fixture's version and its Cricsheet source; who may read it.
 */

const MATCH = "1082591";
const fixtureId = cricsheetIds.fixture(MATCH);

type Contributor = {
  eventId: string;
  fixtureId: string;
  fixtureVersion: number;
  currentRevision: number;
  revisions: { revision: number; source: { kind: string } | null }[];
  provenance: string;
};
type Page = { data: Contributor[]; count: number; traceVersion: string; pagination: { nextCursor: string | null } };
type Row = { participantId: string; value: number };

let api: SubmissionApi;
let submitter: Person;
let seasonId: string;
let events: PublicEvent[];
let version: number;
beforeAll(async () => {
  ({ api, submitter } = await openWithMatch(`ipl/${MATCH}.json`));
  const fixture = await api.api.get(`/api/v1/fixtures/${fixtureId}`);
  const body = (fixture.body as { data: { season: { seasonId: string }; version: number } }).data;
  seasonId = body.season.seasonId;
  version = body.version;
  events = await api.publicEvents(fixtureId);
}, 120_000);
afterAll(() => api?.close());

const pathOf = (participantId: string, statisticId = `season-${seasonId}`) =>
  `/api/v1/provenance/participants/${participantId}/statistics/${statisticId}`;

async function leader(metric: string): Promise<Row> {
  const res = await api.api.get(`/api/v1/statistics/leaderboards?scope=season&seasonId=${seasonId}&metric=${metric}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Row[] }).data[0] as Row;
}

/** Every page of a trace, 40 deliveries at a time. */
async function wholeTrace(participantId: string, part: string, by = api.admin): Promise<Contributor[]> {
  const all: Contributor[] = [];
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await api.api.get(
      `${pathOf(participantId)}?part=${part}&limit=40${cursor ? `&cursor=${cursor}` : ""}`,
      { token: by.token },
    );
    expect(res.status, res.text).toBe(200);
    const page = res.body as Page;
    all.push(...page.data);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return all;
}

const byId = (id: string) => events.find((e) => e.eventId === id) as PublicEvent;

describe("provenance of a season leaderboard row", () => {
  it("traces the leading run scorer's runs to exactly the deliveries they faced or were out on", async () => {
    const row = await leader("most_runs");
    // the leaderboard says where its rows' provenance is
    const board = await api.api.get(
      `/api/v1/statistics/leaderboards?scope=season&seasonId=${seasonId}&metric=most_runs`,
    );
    const link = (board.body as { provenance: string }).provenance.replace("{participantId}", row.participantId);
    expect(link).toBe(`${pathOf(row.participantId)}?part=batting`);
    const trace = await wholeTrace(row.participantId, "batting");
    const expected = events.filter(
      (e) => e.strikerId === row.participantId || e.wickets.some((w) => w.playerOutId === row.participantId),
    );
    expect(trace.map((c) => c.eventId)).toEqual(expected.map((e) => e.eventId));
    const runs = trace
      .map((c) => byId(c.eventId))
      .filter((e) => e.strikerId === row.participantId)
      .reduce((sum, e) => sum + e.runs.offBat, 0);
    expect(runs).toBe(row.value);
    for (const c of trace) {
      expect(c).toMatchObject({ fixtureId, fixtureVersion: version, currentRevision: 1 });
      expect(c.revisions.map((r) => r.source?.kind)).toEqual(["cricsheet"]);
      expect(c.provenance).toBe(`/api/v1/provenance/events/${c.eventId}`);
    }
  });

  it("traces the leading wicket taker's bowling to the deliveries they bowled, and a fielder's catches", async () => {
    const row = await leader("most_wickets");
    const trace = await wholeTrace(row.participantId, "bowling");
    expect(trace.map((c) => c.eventId)).toEqual(
      events.filter((e) => e.bowlerId === row.participantId).map((e) => e.eventId),
    );
    const fielder = events.flatMap((e) => e.wickets.flatMap((w) => w.fielders))[0]?.participantId as string;
    const caught = await wholeTrace(fielder, "fielding");
    expect(caught.map((c) => c.eventId)).toEqual(
      events
        .filter((e) => e.wickets.some((w) => w.fielders.some((f) => f.participantId === fielder)))
        .map((e) => e.eventId),
    );
  });

  it("refuses a cursor once the trace changed (a delivery of it corrected), and unknown scopes and parts", async () => {
    const row = await leader("most_runs");
    const first = await api.api.get(`${pathOf(row.participantId)}?part=batting&limit=5`, { token: api.admin.token });
    const { pagination, traceVersion } = first.body as Page;
    // a dot ball the batter faced, corrected to a single: the trace is another
    const dot = events.find(
      (e) => e.strikerId === row.participantId && e.runs.total === 0 && e.wickets.length === 0,
    ) as PublicEvent;
    const {
      eventId,
      sequenceNumber: _s,
      fixtureId: _f,
      revision: _r,
      ...read
    } = dot as PublicEvent & Record<string, unknown>;
    const { inningsOrdinal: _o, strikerName: _a, nonStrikerName: _b, bowlerName: _c, ...state } = read;
    const corrected = await api.api.put(
      `/api/v1/submissions/events/${eventId}`,
      {
        fixtureId,
        schemaVersion: "1.0",
        reason: "provenance test",
        event: { ...state, runs: { offBat: 1, extras: 0, total: 1 } },
      },
      { token: api.admin.token },
    );
    expect(corrected.status, corrected.text).toBe(200);
    await api.world.catchUp();
    const next = await api.api.get(
      `${pathOf(row.participantId)}?part=batting&limit=5&cursor=${pagination.nextCursor}`,
      {
        token: api.admin.token,
      },
    );
    expectError(next, 409, "TRACE_CHANGED");
    const fresh = await api.api.get(`${pathOf(row.participantId)}?part=batting&limit=5`, { token: api.admin.token });
    expect((fresh.body as Page).traceVersion).not.toBe(traceVersion);

    expectError(
      await api.api.get(`${pathOf(row.participantId, "season-nope")}?part=batting`, { token: api.admin.token }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await api.api.get(`${pathOf(row.participantId, "bogus")}?part=batting`, { token: api.admin.token }),
      404,
      "NOT_FOUND",
    );
    expectError(await api.api.get(pathOf(row.participantId), { token: api.admin.token }), 400, "VALIDATION_FAILED");
    expectError(
      await api.api.get(`${pathOf(row.participantId)}?part=keeping`, { token: api.admin.token }),
      400,
      "VALIDATION_FAILED",
    );
  });

  it("is an administrator's, or a submitter's in the competition; a career only an administrator's", async () => {
    const row = await leader("most_runs");
    const season = `${pathOf(row.participantId)}?part=batting`;
    expect((await api.api.get(season, { token: submitter.token })).status).toBe(200);
    expectError(
      await api.api.get(`${pathOf(row.participantId, "career")}?part=batting`, { token: submitter.token }),
      403,
      "FORBIDDEN",
    );
    expect(
      (await api.api.get(`${pathOf(row.participantId, "career")}?part=batting`, { token: api.admin.token })).status,
    ).toBe(200);
    const elsewhere = await api.aSubmitter(api.admin, (await api.aRegisteredCompetition()).id);
    expectError(await api.api.get(season, { token: elsewhere.token }), 403, "FORBIDDEN");
    const viewer = await api.signIn();
    expectError(await api.api.get(season, { token: viewer.token }), 403, "FORBIDDEN");
    expectUnauthorized(await api.api.get(season));
  });
});
