import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapAdmin, requestDeletion } from "../../src/commands/accounts/handlers.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { type DeliveryState, fixtureStream, recordingId } from "../../streams/fixture.js";
import { catalogue } from "../../streams/index.js";
import { expectError, expectUnauthorized, type Person } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import {
  correctionOf,
  details,
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * Corrections of accepted deliveries (PUT /submissions/events/{eventId}) and their audit
 * history, over HTTP against the real app and database: who may, what is refused and why,
 * the revisions and scopes a correction produces, and what the public reads show after it.
 */

let api: SubmissionApi;
let viewer: Person;
beforeAll(async () => {
  api = await openSubmissionApi();
  viewer = await api.signIn();
}, 60_000);
afterAll(() => api?.close());

type RevisionState = DeliveryState & { eventId: string; sequenceNumber: number };
type Scope = { scope: string; path: string } & Partial<Record<string, string>>;
type CorrectionResult = {
  eventId: string;
  fixtureId: string;
  revision: number;
  previousRevision: number;
  changed: boolean;
  refreshedScopes: Scope[];
};
type HistoryEntry = Record<string, unknown> & {
  revision: number;
  previousState: RevisionState;
  resultingState: RevisionState;
  refreshedScopes: Scope[];
};
type History = {
  eventId: string;
  fixtureId: string;
  currentRevision: number;
  recorded: Record<string, unknown> & { state: RevisionState };
  corrections: HistoryEntry[];
};

const eventPath = (eventId: string) => `/api/v1/submissions/events/${eventId}`;
/** `token` null sends no Authorization header. */
const put = (eventId: string, body: unknown, token: string | null = api.admin.token) =>
  api.api.put(eventPath(eventId), body, { token: token ?? undefined });
const getHistory = (eventId: string, token: string | null = api.admin.token) =>
  api.api.get(`${eventPath(eventId)}/history`, { token: token ?? undefined });

/** The history of a delivery, as the admin reads it. */
async function historyOf(eventId: string): Promise<History> {
  const res = await getHistory(eventId);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: History }).data;
}

/** A correction's answer, asserting 200. */
function corrected(res: ApiResponse): CorrectionResult {
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: CorrectionResult }).data;
}

/** A submitted event as a revision state: every field, the ball label null when absent. */
const stateOf = (event: SubmittedEvent, changes: Partial<SubmittedEvent> = {}): RevisionState => {
  const { ballNumber, ...rest } = { ...event, ...changes };
  return { ...rest, ballNumber: ballNumber ?? null } as RevisionState;
};

/** A fixture given `count` valid events of its first innings (more innings open) by `by`, and the submission id. */
async function aSubmittedFixture(count = 6, { innings = 2, by = api.admin } = {}) {
  const fixture = await api.aFixtureToSubmitTo({ innings });
  const events = validEvents(fixture, count);
  const res = await api.submit(submission(fixture, events), by.token);
  expect(res.status, res.text).toBe(201);
  return { fixture, events, submissionId: (res.body as { data: { submissionId: string } }).data.submissionId };
}

const streamOf = (fixtureId: string) => api.world.store.readStream(fixtureStream(fixtureId));

/**
 * What a correction from `before` to `after` must refresh, worked out from the rule: the
 * fixture, then for everyone in either state (by id) their season, competition and career
 * aggregates; only the fixture when both states are in a super over.
 */
function expectedScopes(
  fixture: FixtureBuilder,
  states: { state: Pick<DeliveryState, "strikerId" | "nonStrikerId" | "bowlerId" | "wickets">; superOver?: boolean }[],
): Scope[] {
  const ids = states
    .filter((s) => !s.superOver)
    .flatMap(({ state }) => [
      state.strikerId,
      state.nonStrikerId,
      state.bowlerId,
      ...state.wickets.flatMap((w) => [w.playerOutId, ...w.fielders.map((f) => f.participantId)]),
    ]);
  const people = [...new Set(ids)].sort();
  return [
    { scope: "fixture", fixtureId: fixture.id, path: `/api/v1/fixtures/${fixture.id}/statistics` },
    ...people.flatMap((participantId) => [
      {
        scope: "season",
        participantId,
        seasonId: fixture.season.id,
        path: `/api/v1/participants/${participantId}/statistics/season-${fixture.season.id}`,
      },
      {
        scope: "competition",
        participantId,
        competitionId: fixture.competition.id,
        path: `/api/v1/participants/${participantId}/statistics/competition-${fixture.competition.id}`,
      },
      { scope: "career", participantId, path: `/api/v1/participants/${participantId}/statistics/career` },
    ]),
  ];
}

/** Someone signed in under `name` and made an admin as `cricket admin promote` does. */
async function anAdminNamed(name: string): Promise<Person> {
  const person = await api.signIn({ name });
  await bootstrapAdmin(api.world.store, person.subject, { now: new Date() });
  await api.world.catchUp();
  return person;
}

/** Someone signed in under `name`, granted submitter access to `competitionId` over HTTP. */
async function aSubmitterNamed(name: string, competitionId: string): Promise<Person> {
  const person = await api.signIn({ name });
  const requested = await api.api.post("/api/v1/submitter-access-requests", { competitionId }, { token: person.token });
  expect(requested.status, requested.text).toBe(200);
  const approved = await api.api.patch(
    `/api/v1/admin/users/${person.id}/submitter-access`,
    { approved: true },
    { token: api.admin.token },
  );
  expect(approved.status, approved.text).toBe(200);
  return person;
}

describe("who may correct a delivery and read its history", () => {
  it("answers 401 with a Bearer challenge without a token, to both routes", async () => {
    const { fixture, events } = await aSubmittedFixture(2);
    const target = events[0] as SubmittedEvent;
    const body = correctionOf(fixture, target, { runs: { offBat: 6, extras: 0, total: 6 } });
    expectUnauthorized(await put(target.eventId, body, null));
    expectUnauthorized(await getHistory(target.eventId, null));
    expectUnauthorized(await put(target.eventId, body, "not-a-token"));
    expectUnauthorized(await getHistory(target.eventId, "not-a-token"));
    expect(await historyOf(target.eventId)).toMatchObject({ currentRevision: 1, corrections: [] });
  });

  it("refuses viewers, out-of-scope submitters and disabled accounts (403); lets in-scope submitters and admins", async () => {
    const { fixture, events } = await aSubmittedFixture(3);
    const target = events[1] as SubmittedEvent;
    const elsewhere = await api.aRegisteredCompetition();
    const outOfScope = await api.aSubmitter(api.admin, elsewhere.id);
    const disabledSubmitter = await api.aSubmitter(api.admin, fixture.competition.id);
    await requestDeletion(api.world.store, disabledSubmitter.id, { now: new Date() });
    await api.world.catchUp();
    const disabledViewer = await api.aDisabledAccount();
    const body = correctionOf(fixture, target, { runs: { offBat: 3, extras: 0, total: 3 } });

    for (const person of [viewer, outOfScope, disabledSubmitter, disabledViewer]) {
      expectError(await put(target.eventId, body, person.token), 403, "FORBIDDEN");
      expectError(await getHistory(target.eventId, person.token), 403, "FORBIDDEN");
    }
    const untouched = await historyOf(target.eventId);
    expect(untouched).toMatchObject({ currentRevision: 1, corrections: [] });

    const inScope = await api.aSubmitter(api.admin, fixture.competition.id);
    expect(corrected(await put(target.eventId, body, inScope.token))).toMatchObject({ revision: 2, changed: true });
    expect((await getHistory(target.eventId, inScope.token)).status).toBe(200);
    const byAdmin = correctionOf(fixture, target, { runs: { offBat: 2, extras: 0, total: 2 } });
    expect(corrected(await put(target.eventId, byAdmin, api.admin.token))).toMatchObject({ revision: 3 });
    expect((await historyOf(target.eventId)).corrections.map((c) => c.requestedBy)).toEqual([
      { id: inScope.id, name: "Jo Bloggs" },
      { id: api.admin.id, name: "Jo Bloggs" },
    ]);
  });

  it("tells a viewer nothing: an invalid body, an unknown event or a non-uuid all get the same 403", async () => {
    const { events } = await aSubmittedFixture(1);
    const eventId = (events[0] as SubmittedEvent).eventId;
    for (const [id, body] of [
      [eventId, { nonsense: true }],
      [eventId, "[not json"],
      [randomUUID(), { nonsense: true }],
      ["not-a-uuid", {}],
    ] as const) {
      expectError(await put(id, body, viewer.token), 403, "FORBIDDEN");
      expectError(await getHistory(id, viewer.token), 403, "FORBIDDEN");
    }
    expect((await historyOf(eventId)).corrections).toEqual([]);
  });
});

describe("unknown deliveries", () => {
  it("answers 404 to an unknown uuid and to an id that is no uuid, on both routes", async () => {
    const { fixture, events } = await aSubmittedFixture(1);
    const body = correctionOf(fixture, events[0] as SubmittedEvent);
    const inScope = await api.aSubmitter(api.admin, fixture.competition.id);
    for (const id of [randomUUID(), "not-a-uuid", "12345", fixture.id]) {
      for (const token of [api.admin.token, inScope.token]) {
        expectError(await put(id, body, token), 404, "NOT_FOUND");
        expectError(await getHistory(id, token), 404, "NOT_FOUND");
      }
    }
    // The delivery is looked up before the body is read: a body that is not JSON changes nothing.
    expectError(await put(randomUUID(), "[not json"), 404, "NOT_FOUND");
    expectError(await put((events[0] as SubmittedEvent).eventId, "[not json"), 400, "INVALID_JSON");
  });

  it("finds a delivery by its event id in any letter case", async () => {
    const { events } = await aSubmittedFixture(1);
    const eventId = (events[0] as SubmittedEvent).eventId;
    const res = await getHistory(eventId.toUpperCase());
    expect(res.status, res.text).toBe(200);
    expect((res.body as { data: History }).data.eventId).toBe(eventId);
  });
});

describe("a correction", () => {
  it("appends revision 2, then 3; the public event shows the live revision; a repeated PUT changes nothing", async () => {
    const { fixture, events } = await aSubmittedFixture(6);
    const target = events[3] as SubmittedEvent; // a dot ball
    const four = correctionOf(fixture, target, { runs: { offBat: 4, extras: 0, total: 4 } }, "four, not a dot");
    expect(corrected(await put(target.eventId, four))).toMatchObject({
      eventId: target.eventId,
      fixtureId: fixture.id,
      revision: 2,
      previousRevision: 1,
      changed: true,
    });
    const publicEvent = async () => (await api.publicEvents(fixture.id)).find((e) => e.eventId === target.eventId);
    expect(await publicEvent()).toMatchObject({ revision: 2, runs: { offBat: 4, extras: 0, total: 4 } });

    const six = correctionOf(fixture, target, { runs: { offBat: 6, extras: 0, total: 6 } }, "six on replay");
    expect(corrected(await put(target.eventId, six))).toMatchObject({
      revision: 3,
      previousRevision: 2,
      changed: true,
    });
    expect(await publicEvent()).toMatchObject({ revision: 3, runs: { offBat: 6, extras: 0, total: 6 } });

    const streamLength = (await streamOf(fixture.id)).length;
    for (const again of [six, { ...six, reason: "same state, another reason" }]) {
      expect(corrected(await put(target.eventId, again))).toMatchObject({
        revision: 3,
        previousRevision: 3,
        changed: false,
      });
    }
    expect((await streamOf(fixture.id)).length).toBe(streamLength);
    const history = await historyOf(target.eventId);
    expect(history.currentRevision).toBe(3);
    expect(history.corrections.map((c) => [c.revision, c.reason])).toEqual([
      [2, "four, not a dot"],
      [3, "six on replay"],
    ]);
    expect(await publicEvent()).toMatchObject({ revision: 3 });
    // The other deliveries are as submitted.
    const others = (await api.publicEvents(fixture.id)).filter((e) => e.eventId !== target.eventId);
    expect(others.map((e) => [e.eventId, e.revision, e.runs.total])).toEqual(
      events.filter((e) => e !== target).map((e) => [e.eventId, 1, e.runs.total]),
    );
  });

  it("keeps the inherited sequence and accepts the new ball label, position and players", async () => {
    const { fixture, events } = await aSubmittedFixture(4);
    const target = events[3] as SubmittedEvent;
    const batters = fixture.innings[0]?.batting.players.map((p) => p.id) as string[];
    const changes = {
      overNumber: 3,
      positionInOver: 2,
      ballNumber: "3.3",
      strikerId: batters[4] as string,
      nonStrikerId: batters[5] as string,
    };
    corrected(await put(target.eventId, correctionOf(fixture, target, changes)));
    const seen = (await api.publicEvents(fixture.id)).find((e) => e.eventId === target.eventId);
    expect(seen).toMatchObject({ ...changes, sequenceNumber: target.sequenceNumber, revision: 2 });
    expect((await historyOf(target.eventId)).corrections[0]?.resultingState).toEqual(stateOf(target, changes));
  });

  it("reports each problem under its field (422) and stores nothing", async () => {
    const { fixture, events } = await aSubmittedFixture(4);
    const other = await aSubmittedFixture(1);
    const target = events[3] as SubmittedEvent;
    const fielders = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];
    const valid = correctionOf(fixture, target, { runs: { offBat: 1, extras: 0, total: 1 } });
    const wicket = { kind: "hit the ball twice, badly", playerOutId: target.strikerId, fielders: [] };
    const cases: [string, unknown, { code: string; field: string }[]][] = [
      ["a blank reason", { ...valid, reason: "  \t " }, [{ code: "INVALID_FIELD", field: "reason" }]],
      ["no reason", { ...valid, reason: undefined }, [{ code: "INVALID_FIELD", field: "reason" }]],
      ["schema version 2.0", { ...valid, schemaVersion: "2.0" }, [{ code: "INVALID_FIELD", field: "schemaVersion" }]],
      [
        "another sequence number than the delivery's own",
        { ...valid, event: { ...valid.event, sequenceNumber: 99 } },
        [{ code: "INVALID_FIELD", field: "event.sequenceNumber" }],
      ],
      [
        "another delivery's event id",
        { ...valid, event: { ...valid.event, eventId: (events[0] as SubmittedEvent).eventId } },
        [{ code: "INVALID_FIELD", field: "event.eventId" }],
      ],
      [
        "a striker from the fielding side",
        { ...valid, event: { ...valid.event, strikerId: fielders[0] } },
        [{ code: "INVALID_PARTICIPANT", field: "event.strikerId" }],
      ],
      [
        "an unknown innings",
        { ...valid, event: { ...valid.event, inningsId: `${fixture.id}-innings-9` } },
        [{ code: "INVALID_INNINGS", field: "event.inningsId" }],
      ],
      [
        "an unknown dismissal kind",
        { ...valid, event: { ...valid.event, wickets: [wicket] } },
        [{ code: "UNKNOWN_DISMISSAL_KIND", field: "event.wickets.0.kind" }],
      ],
      [
        "runs that do not add up",
        { ...valid, event: { ...valid.event, runs: { offBat: 1, extras: 0, total: 2 } } },
        [{ code: "INVALID_FIELD", field: "event.runs.total" }],
      ],
      [
        "another fixture's id",
        { ...valid, fixtureId: other.fixture.id },
        [{ code: "INVALID_FIELD", field: "fixtureId" }],
      ],
      [
        "a NUL character in the reason",
        { ...valid, reason: "no\u0000ball" },
        [{ code: "INVALID_FIELD", field: "reason" }],
      ],
      [
        "an unpaired surrogate in the reason and a NUL in a substitute fielder's id",
        {
          ...valid,
          reason: "replay \udc00",
          event: {
            ...valid.event,
            wickets: [{ ...wicket, fielders: [{ participantId: "x\u0000", substitute: true }] }],
          },
        },
        [
          { code: "INVALID_FIELD", field: "reason" },
          { code: "INVALID_FIELD", field: "event.wickets.0.fielders.0.participantId" },
        ],
      ],
    ];
    const streamLength = (await streamOf(fixture.id)).length;
    for (const [what, body, expected] of cases) {
      const found = details(await put(target.eventId, body));
      expect(
        found.map(({ code, field }) => ({ code, field })),
        what,
      ).toEqual(expected);
      for (const detail of found) expect(detail.message, what).toEqual(expect.any(String));
    }
    expect((await streamOf(fixture.id)).length).toBe(streamLength);
    expect(await historyOf(target.eventId)).toMatchObject({ currentRevision: 1, corrections: [] });
    expect((await api.publicEvents(fixture.id)).find((e) => e.eventId === target.eventId)).toMatchObject({
      revision: 1,
      runs: target.runs,
    });
    // The same body, made valid, is accepted.
    expect(corrected(await put(target.eventId, valid)).revision).toBe(2);
  });

  it("refuses a ball position or sequence another live delivery holds (409 EVENT_CONFLICT), storing nothing", async () => {
    const { fixture, events } = await aSubmittedFixture(6);
    const second = validEvents(fixture, 6, { ordinal: 1 });
    expect((await api.submit(submission(fixture, second))).status).toBe(201);
    const target = events[5] as SubmittedEvent;
    const held = events[4] as SubmittedEvent;
    const streamLength = (await streamOf(fixture.id)).length;

    const ontoHeld = await put(
      target.eventId,
      correctionOf(fixture, target, {
        overNumber: held.overNumber,
        positionInOver: held.positionInOver,
        ballNumber: undefined,
      }),
    );
    expectError(ontoHeld, 409, "EVENT_CONFLICT");
    expect((ontoHeld.body as { error: { details: unknown[] } }).error.details).toEqual([
      { code: "EVENT_CONFLICT", message: expect.stringContaining(held.eventId), field: "event.positionInOver" },
    ]);
    // Sequence 6 of the second innings is held: moving there (to a free ball) conflicts on the innings.
    const intoSecond = await put(
      target.eventId,
      correctionOf(fixture, target, {
        inningsId: fixture.innings[1]?.inningsId,
        overNumber: 9,
        ballNumber: "9.1",
        strikerId: second[0]?.strikerId,
        nonStrikerId: second[0]?.nonStrikerId,
        bowlerId: second[0]?.bowlerId,
      }),
    );
    expectError(intoSecond, 409, "EVENT_CONFLICT");
    expect((intoSecond.body as { error: { details: unknown[] } }).error.details).toEqual([
      {
        code: "EVENT_CONFLICT",
        message: expect.stringContaining(second[5]?.eventId as string),
        field: "event.inningsId",
      },
    ]);

    expect((await streamOf(fixture.id)).length).toBe(streamLength);
    expect(await historyOf(target.eventId)).toMatchObject({ currentRevision: 1, corrections: [] });
    // Its own position, and one nobody holds, are fine.
    const own = correctionOf(fixture, target, { runs: { offBat: 3, extras: 0, total: 3 } });
    expect(corrected(await put(target.eventId, own)).revision).toBe(2);
    const free = correctionOf(fixture, target, { overNumber: 7, positionInOver: 0, ballNumber: "7.1" });
    expect(corrected(await put(target.eventId, free)).revision).toBe(3);
    // A ball after a later delivery's crosses it: the orders by sequence and by ball must agree.
    const crossing = await put(held.eventId, correctionOf(fixture, held, { overNumber: 8, ballNumber: "8.1" }));
    expectError(crossing, 409, "EVENT_CONFLICT");
    expect((crossing.body as { error: { details: unknown[] } }).error.details).toEqual([
      { code: "EVENT_CONFLICT", message: expect.stringContaining(target.eventId), field: "event.overNumber" },
    ]);
    // The place it left is free again.
    const intoLeft = correctionOf(fixture, held, {
      overNumber: target.overNumber,
      positionInOver: target.positionInOver,
    });
    expect(corrected(await put(held.eventId, intoLeft)).revision).toBe(2);
  });
});

describe("refreshed scopes", () => {
  it("lists the fixture, then everyone in the old or new state once each: a changed bowler and a dropped wicket", async () => {
    const { fixture, events } = await aSubmittedFixture(10);
    const target = events[9] as SubmittedEvent; // caught: striker out, a fielder in it
    expect(target.wickets).toHaveLength(1);
    const fielders = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];
    const newBowler = fielders.find(
      (id) => id !== target.bowlerId && id !== target.wickets[0]?.fielders[0]?.participantId,
    );
    const changes = { bowlerId: newBowler as string, wickets: [], runs: { offBat: 1, extras: 0, total: 1 } };
    const result = corrected(await put(target.eventId, correctionOf(fixture, target, changes)));
    const expected = expectedScopes(fixture, [{ state: target }, { state: { ...target, ...changes } }]);
    // Striker, non-striker, the old and the new bowler, the catcher (only in the old state).
    expect(expected).toHaveLength(1 + 5 * 3);
    expect(result.refreshedScopes).toEqual(expected);
    expect(new Set(result.refreshedScopes.map((s) => s.path)).size).toBe(result.refreshedScopes.length);
    expect((await historyOf(target.eventId)).corrections[0]?.refreshedScopes).toEqual(expected);

    // A repeated PUT changes nothing, so no statistic needs refreshing; the history keeps one correction.
    const again = corrected(await put(target.eventId, correctionOf(fixture, target, changes)));
    expect(again).toMatchObject({ changed: false, revision: 2, previousRevision: 2, refreshedScopes: [] });
    expect((await historyOf(target.eventId)).corrections).toHaveLength(1);
  });

  it("names every refreshed path as a readable statistic", async () => {
    const { fixture, events } = await aSubmittedFixture(3);
    const target = events[2] as SubmittedEvent;
    const { refreshedScopes } = corrected(
      await put(target.eventId, correctionOf(fixture, target, { runs: { offBat: 2, extras: 0, total: 2 } })),
    );
    for (const scope of refreshedScopes) {
      const res = await api.api.get(scope.path);
      expect(res.status, `${scope.path}: ${res.text}`).toBe(200);
    }
  });

  it("touches only the fixture for a super over; a move out of a regular innings still refreshes its players", async () => {
    const fixture = await api.aFixtureToSubmitTo({ innings: 2 });
    const superOverId = `${fixture.id}-super-over`;
    await api.world.append([
      {
        id: randomUUID(),
        stream: fixture.stream,
        type: "InningsOpened",
        data: catalogue.parse("InningsOpened", {
          inningsId: superOverId,
          ordinal: 2,
          battingCompetitorId: fixture.home.id,
          bowlingCompetitorId: fixture.away.id,
          superOver: true,
          target: null,
          declared: false,
          forfeited: false,
          penaltyRuns: { pre: 0, post: 0 },
          absentHurtIds: [],
          miscountedOvers: [],
        }),
      },
    ]);
    // The home side bats in the first innings and in the super over: the same squads apply.
    const regular = validEvents(fixture, 3);
    const superOver = validEvents(fixture, 2).map((e) => ({ ...e, inningsId: superOverId }));
    expect((await api.submit(submission(fixture, [...regular, ...superOver]))).status).toBe(201);
    const fixtureOnly = expectedScopes(fixture, []);
    expect(fixtureOnly).toHaveLength(1);

    const inSuperOver = superOver[1] as SubmittedEvent;
    const fielders = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];
    const result = corrected(
      await put(
        inSuperOver.eventId,
        correctionOf(fixture, inSuperOver, {
          bowlerId: fielders[0] as string,
          runs: { offBat: 6, extras: 0, total: 6 },
        }),
      ),
    );
    expect(result.refreshedScopes).toEqual(fixtureOnly);
    expect((await historyOf(inSuperOver.eventId)).corrections[0]?.refreshedScopes).toEqual(fixtureOnly);

    const moved = regular[2] as SubmittedEvent;
    // Its sequence (3) follows the super over's two balls, so its ball does too: a super over has one over.
    const intoSuperOver = { inningsId: superOverId, overNumber: 0, positionInOver: 2, ballNumber: "0.3" };
    const out = corrected(await put(moved.eventId, correctionOf(fixture, moved, intoSuperOver)));
    expect(out.refreshedScopes).toEqual(
      expectedScopes(fixture, [{ state: moved }, { state: { ...moved, ...intoSuperOver }, superOver: true }]),
    );
    expect(out.refreshedScopes.length).toBeGreaterThan(1);
  });
});

describe("statistics after a correction", () => {
  type Line = { participantId: string; runs: number };
  type Statistics = {
    data: { innings: { batting: { lines: Line[] }; total: { runs: number } }[] };
    fixtureVersion: number;
  };
  const statisticsPath = (fixture: FixtureBuilder) => `/api/v1/fixtures/${fixture.id}/statistics`;
  /** A correction's answer does not wait for the statistics rebuild (docs/submissions.md): a reader of them does. */
  const statisticsRebuilt = async () => api.world.catchUp(await api.world.store.head());

  it("changes the fixture's batting card and total, its ETag (the cached version is gone) and the career aggregate", async () => {
    const { fixture, events } = await aSubmittedFixture(6); // 0+1+4+0+2+6 = 13 off the bat, all by one striker
    await statisticsRebuilt();
    const striker = (events[0] as SubmittedEvent).strikerId;
    const careerPath = `/api/v1/participants/${striker}/statistics/career`;
    const careerRuns = async () => {
      const res = await api.api.get(careerPath);
      expect(res.status, res.text).toBe(200);
      return (res.body as { data: { batting: { runs: number } } }).data.batting.runs;
    };
    const before = await api.api.get(statisticsPath(fixture));
    expect(before.status, before.text).toBe(200);
    const etag = before.headers.get("ETag") as string;
    const old = before.body as Statistics;
    expect(old.data.innings[0]?.batting.lines.find((l) => l.participantId === striker)?.runs).toBe(13);
    expect(old.data.innings[0]?.total.runs).toBe(13);
    expect((await api.api.get(statisticsPath(fixture), { headers: { "If-None-Match": etag } })).status).toBe(304);
    expect(await careerRuns()).toBe(13);

    const target = events[0] as SubmittedEvent; // a dot ball becomes a four
    corrected(await put(target.eventId, correctionOf(fixture, target, { runs: { offBat: 4, extras: 0, total: 4 } })));
    await statisticsRebuilt();

    const after = await api.api.get(statisticsPath(fixture), { headers: { "If-None-Match": etag } });
    expect(after.status, after.text).toBe(200);
    expect(after.headers.get("ETag")).not.toBe(etag);
    const fresh = after.body as Statistics;
    expect(fresh.fixtureVersion).toBeGreaterThan(old.fixtureVersion);
    expect(fresh.data.innings[0]?.batting.lines.find((l) => l.participantId === striker)?.runs).toBe(17);
    expect(fresh.data.innings[0]?.total.runs).toBe(17);
    expect(await careerRuns()).toBe(17);

    // Byes instead: off the striker's runs, still in the total.
    const byes = { runs: { offBat: 0, extras: 2, total: 2 }, extras: { byes: 2 } };
    corrected(await put(target.eventId, correctionOf(fixture, target, byes)));
    await statisticsRebuilt();
    const third = (await api.api.get(statisticsPath(fixture))).body as Statistics;
    expect(third.data.innings[0]?.batting.lines.find((l) => l.participantId === striker)?.runs).toBe(13);
    expect(third.data.innings[0]?.total.runs).toBe(15);
    expect(await careerRuns()).toBe(13);
  });
});

describe("the audit history", () => {
  it("records who submitted and who corrected, both states, the chained delivery ids and the original position", async () => {
    const ada = await anAdminNamed("Ada Admin");
    const { fixture, events, submissionId } = await aSubmittedFixture(6, { by: ada });
    const sam = await aSubmitterNamed("Sam Scorer", fixture.competition.id);
    const target = events[4] as SubmittedEvent;
    const fielders = fixture.innings[0]?.bowling.players.map((p) => p.id) as string[];

    const first = { runs: { offBat: 3, extras: 0, total: 3 } };
    const second = { ...first, bowlerId: fielders[1] as string, ballNumber: undefined };
    const put1 = corrected(
      await put(target.eventId, correctionOf(fixture, target, first, "three, not two"), ada.token),
    );
    const put2 = corrected(await put(target.eventId, correctionOf(fixture, target, second, "wrong bowler"), sam.token));

    const stream = await streamOf(fixture.id);
    const recorded = stream.find(
      (e) => e.type === "DeliveryRecorded" && (e.data as { eventId: string }).eventId === target.eventId,
    );
    const corrections = stream.filter((e) => e.type === "DeliveryCorrected");
    expect(recorded?.id).toBe(recordingId(target.eventId));
    expect(corrections).toHaveLength(2);
    const [c1, c2] = corrections as [(typeof stream)[number], (typeof stream)[number]];

    const s1 = stateOf(target);
    const s2 = stateOf(target, first);
    const s3 = stateOf(target, second);
    const origin = { submissionId, position: 4 };
    const history = await historyOf(target.eventId);
    expect(history).toEqual({
      eventId: target.eventId,
      fixtureId: fixture.id,
      currentRevision: 3,
      recorded: {
        deliveryId: recorded?.id,
        revision: 1,
        recordedBy: { id: ada.id, name: "Ada Admin" },
        recordedAt: recorded?.metadata.occurredAt,
        originalSubmission: origin,
        state: s1,
      },
      corrections: [
        {
          previousDeliveryId: recorded?.id,
          replacementDeliveryId: c1.id,
          previousRevision: 1,
          revision: 2,
          requestedBy: { id: ada.id, name: "Ada Admin" },
          correctedAt: c1.metadata.occurredAt,
          reason: "three, not two",
          previousState: s1,
          resultingState: s2,
          originalSubmission: origin,
          batchItemId: null,
          review: null,
          refreshedScopes: expectedScopes(fixture, [{ state: s1 }, { state: s2 }]),
        },
        {
          previousDeliveryId: c1.id,
          replacementDeliveryId: c2.id,
          previousRevision: 2,
          revision: 3,
          requestedBy: { id: sam.id, name: "Sam Scorer" },
          correctedAt: c2.metadata.occurredAt,
          reason: "wrong bowler",
          previousState: s2,
          resultingState: s3,
          originalSubmission: origin,
          batchItemId: null,
          review: null,
          refreshedScopes: expectedScopes(fixture, [{ state: s2 }, { state: s3 }]),
        },
      ],
    });
    expect(put1.refreshedScopes).toEqual(history.corrections[0]?.refreshedScopes);
    expect(put2.refreshedScopes).toEqual(history.corrections[1]?.refreshedScopes);
    expect(new Set([recorded?.id, c1.id, c2.id]).size).toBe(3);
    const times = [history.recorded.recordedAt, ...history.corrections.map((c) => c.correctedAt)] as string[];
    expect(times.map((t) => Date.parse(t))).toEqual([...times].map((t) => Date.parse(t)).sort((a, b) => a - b));
    // The submitter in scope reads the same history.
    const bySam = await getHistory(target.eventId, sam.token);
    expect((bySam.body as { data: History }).data).toEqual(history);
    // A delivery of the same submission that was never corrected has its own position and no entries.
    expect(await historyOf((events[0] as SubmittedEvent).eventId)).toMatchObject({
      currentRevision: 1,
      recorded: { originalSubmission: { submissionId, position: 0 } },
      corrections: [],
    });
  });

  it("shows an imported delivery as recorded by the Cricsheet import, without a submission; then its correction", async () => {
    const file = fileURLToPath(new URL("../../samples/cricsheet/1298152.json", import.meta.url));
    const summary = await importCricsheet(api.world.store, [file]);
    expect(summary.failed).toEqual([]);
    await api.world.catchUp();
    const fixtureId = cricsheetIds.fixture("1298152");
    const stream = await streamOf(fixtureId);
    const recorded = stream.filter((e) => e.type === "DeliveryRecorded")[7] as (typeof stream)[number];
    const { eventId, sequenceNumber, submissionId, ...state } = recorded.data as RevisionState & { submissionId: null };
    expect(submissionId).toBeNull();

    const history = await historyOf(eventId);
    expect(history).toEqual({
      eventId,
      fixtureId,
      currentRevision: 1,
      recorded: {
        deliveryId: recorded.id,
        revision: 1,
        recordedBy: { id: "cricsheet-import", name: null },
        recordedAt: recorded.metadata.occurredAt,
        originalSubmission: null,
        state: { eventId, sequenceNumber, ...state },
      },
      corrections: [],
    });

    // the state as the history shows it goes back as the replacement, changed only where meant
    const changed = { ...state, runs: { offBat: 5, extras: 0, total: 5 } };
    const body = { fixtureId, schemaVersion: "1.0", reason: "five: overthrows", event: { ...changed, extras: {} } };
    const result = corrected(await put(eventId, body));
    expect(result).toMatchObject({ revision: 2, previousRevision: 1, changed: true });
    const after = await historyOf(eventId);
    const correction = (await streamOf(fixtureId)).find((e) => e.type === "DeliveryCorrected");
    expect(after.currentRevision).toBe(2);
    expect(after.recorded).toEqual(history.recorded);
    expect(after.corrections).toEqual([
      {
        previousDeliveryId: recorded.id,
        replacementDeliveryId: correction?.id,
        previousRevision: 1,
        revision: 2,
        requestedBy: { id: api.admin.id, name: "Jo Bloggs" },
        correctedAt: correction?.metadata.occurredAt,
        reason: "five: overthrows",
        previousState: history.recorded.state,
        resultingState: { ...history.recorded.state, runs: { offBat: 5, extras: 0, total: 5 }, extras: {} },
        originalSubmission: null,
        batchItemId: null,
        review: null,
        refreshedScopes: result.refreshedScopes,
      },
    ]);
    expect(result.refreshedScopes[0]).toEqual({
      scope: "fixture",
      fixtureId,
      path: `/api/v1/fixtures/${encodeURIComponent(fixtureId)}/statistics`,
    });
  });
});
