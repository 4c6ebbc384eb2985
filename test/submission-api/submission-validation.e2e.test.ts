import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WindowCounter } from "../../src/limits/window-counter.js";
import { expectError, expectUnauthorized } from "../support/account-api.js";
import { aParticipant, type FixtureBuilder, type ParticipantBuilder } from "../support/cricket-builders.js";
import { invalid, participant, sortedAs, type Where, withEvent } from "../support/submission-details.js";
import {
  type Detail,
  DUPLICATE,
  details,
  INVALID,
  openSubmissionApi,
  type Refusal,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

/**
 * POST /api/v1/submissions through HTTP: every detail code and field path of the
 * specification's table, all problems of a submission in one answer, all or nothing, the
 * errors before validation (JSON, size, authentication, role) and what an accepted
 * submission answers and retains. Each test submits to fresh fixtures.
 */

/** Rate limiting is not under test here, and this file sends more than 30 submissions a minute. */
const unlimited: WindowCounter = {
  kind: "memory",
  hit: async (windows, now) => windows.map(({ windowMs }) => ({ count: 1, resetAt: now + windowMs })),
  ping: async () => {},
  close: async () => {},
};

let api: SubmissionApi;
let registeredOutsider: ParticipantBuilder; // registered, in no squad of any test fixture

beforeAll(async () => {
  api = await openSubmissionApi({ rateLimits: unlimited });
  registeredOutsider = aParticipant();
  await api.world.given(registeredOutsider);
}, 60_000);
afterAll(() => api?.close());

const PATH = "/api/v1/submissions";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Code, field and event index of each detail, sorted: within one event the order is not part of the contract. */
const located = (found: Detail[]): Where[] =>
  sortedAs(
    found.map(({ code, field, eventIndex }) => ({ code, field, ...(eventIndex === undefined ? {} : { eventIndex }) })),
  );

const streamOf = (fixture: FixtureBuilder) => api.world.store.readStream(fixture.stream);
const publicIds = async (fixture: FixtureBuilder) => (await api.publicEvents(fixture.id)).map((e) => e.eventId);

/**
 * Submits `body`, expects 422 VALIDATION_FAILED with exactly `expected` (ordered by
 * eventIndex, top-level first), and that the fixture's ledger and public events did not change.
 */
async function expectRefused(
  fixture: FixtureBuilder,
  body: unknown,
  expected: Where[],
  refusal: Refusal = INVALID,
): Promise<Detail[]> {
  const [ledgerBefore, publicBefore] = [await streamOf(fixture), await publicIds(fixture)];
  const found = details(await api.submit(body), refusal);
  const indexes = found.map((d) => d.eventIndex ?? -1);
  expect(indexes, "details ordered by eventIndex, top-level first").toEqual([...indexes].sort((a, b) => a - b));
  expect(located(found)).toEqual(sortedAs(expected));
  expect(await streamOf(fixture)).toHaveLength(ledgerBefore.length);
  expect(await publicIds(fixture)).toEqual(publicBefore);
  return found;
}

/** Submits `events` to `fixture`, expects 201, and that the public reads show them in order. */
async function expectAccepted(fixture: FixtureBuilder, events: SubmittedEvent[], alreadyThere: string[] = []) {
  const res = await api.submit(submission(fixture, events));
  expect(res.status, res.text).toBe(201);
  expect(await publicIds(fixture)).toEqual([...alreadyThere, ...events.map((e) => e.eventId.toLowerCase())]);
  return (res.body as { data: Record<string, unknown> }).data;
}

type Scene = {
  fixture: FixtureBuilder;
  events: SubmittedEvent[];
  batter: (i: number) => string;
  fielder: (i: number) => string;
};
const caught = (s: Scene) => ({
  kind: "caught",
  playerOutId: s.batter(0),
  fielders: [{ participantId: s.fielder(1), substitute: false }],
});

describe("one detail per code and field path; nothing stored, and the same event ids are accepted once right", () => {
  const cases: [string, (s: Scene) => unknown, Where[]][] = [
    ["a missing field", (s) => withEvent(s.events, 1, (e) => delete e.strikerId), [invalid("strikerId", 1)]],
    ["a mistyped field", (s) => withEvent(s.events, 2, (e) => (e.overNumber = "0")), [invalid("overNumber", 2)]],
    [
      "an out-of-range value",
      (s) => withEvent(s.events, 0, (e) => (e.sequenceNumber = 0)),
      [invalid("sequenceNumber", 0)],
    ],
    ["an extra of 0", (s) => withEvent(s.events, 1, (e) => (e.extras = { wides: 0 })), [invalid("extras.wides", 1)]],
    [
      "an unexpected field in an event",
      (s) => withEvent(s.events, 1, (e) => (e.colour = "red")),
      [invalid("colour", 1)],
    ],
    [
      "an unexpected field in runs",
      (s) => withEvent(s.events, 1, (e) => ((e.runs as Record<string, unknown>).fours = 1)),
      [invalid("runs.fours", 1)],
    ],
    [
      "an unexpected field in a wicket",
      (s) => withEvent(s.events, 3, (e) => (e.wickets = [{ ...caught(s), umpire: "x" }])),
      [invalid("wickets.0.umpire", 3)],
    ],
    [
      "an unexpected field in a fielder",
      (s) =>
        withEvent(s.events, 3, (e) => {
          e.wickets = [{ ...caught(s), fielders: [{ participantId: s.fielder(1), substitute: false, diving: true }] }];
        }),
      [invalid("wickets.0.fielders.0.diving", 3)],
    ],
    [
      "a malformed ballNumber",
      (s) => withEvent(s.events, 1, (e) => (e.ballNumber = "0-2")),
      [invalid("ballNumber", 1)],
    ],
    [
      "a ballNumber whose over is not overNumber",
      (s) => withEvent(s.events, 1, (e) => (e.ballNumber = "1.2")),
      [invalid("ballNumber", 1)],
    ],
    [
      "a sequenceNumber that does not ascend within the innings",
      (s) => withEvent(s.events, 2, (e) => (e.sequenceNumber = 1)),
      [invalid("sequenceNumber", 2)],
    ],
    [
      "a positionInOver that does not ascend within the innings",
      (s) => withEvent(s.events, 2, (e) => (e.positionInOver = 1)),
      [invalid("positionInOver", 2)],
    ],
    [
      "runs.total that is not offBat + extras",
      (s) => withEvent(s.events, 1, (e) => (e.runs = { offBat: 1, extras: 0, total: 2 })),
      [invalid("runs.total", 1)],
    ],
    [
      "runs.extras that is not the sum of extras",
      (s) =>
        withEvent(s.events, 1, (e) => {
          e.runs = { offBat: 0, extras: 1, total: 1 };
          e.extras = { legByes: 2 };
        }),
      [invalid("runs.extras", 1)],
    ],
    [
      "the striker as non-striker",
      (s) => withEvent(s.events, 1, (e) => (e.nonStrikerId = e.strikerId)),
      [invalid("nonStrikerId", 1)],
    ],
    [
      "three wickets on one ball",
      (s) => withEvent(s.events, 1, (e) => (e.wickets = [caught(s), caught(s), caught(s)])),
      [invalid("wickets", 1)],
    ],
    [
      "an event id that is not a UUID",
      (s) => withEvent(s.events, 1, (e) => (e.eventId = "delivery-2")),
      [invalid("eventId", 1)],
    ],
    [
      "an unexpected field at the top",
      (s) => ({ ...submission(s.fixture, s.events), comment: "hello" }),
      [invalid("comment")],
    ],
    [
      "schemaVersion 1.1",
      (s) => ({ ...submission(s.fixture, s.events), schemaVersion: "1.1" }),
      [invalid("schemaVersion")],
    ],
    ["no events", (s) => submission(s.fixture, []), [invalid("events")]],
    [
      "1,001 events (the events themselves unchecked)",
      (s) =>
        submission(
          s.fixture,
          validEvents(s.fixture, 1001).map((e) => ({ ...e, strikerId: 7 })),
        ),
      [invalid("events")],
    ],
    [
      "a fixture that does not exist",
      (s) => ({ ...submission(s.fixture, s.events), fixtureId: `${s.fixture.id}-nope` }),
      [{ code: "FIXTURE_NOT_FOUND", field: "fixtureId" }],
    ],
    [
      "an unknown innings",
      (s) => withEvent(s.events, 1, (e) => (e.inningsId = `${s.fixture.id}-innings-9`)),
      [{ code: "INVALID_INNINGS", field: "inningsId", eventIndex: 1 }],
    ],
    [
      "a striker from the fielding side",
      (s) => withEvent(s.events, 1, (e) => (e.strikerId = s.fielder(0))),
      [participant("strikerId", 1)],
    ],
    [
      "a non-striker from the fielding side",
      (s) => withEvent(s.events, 1, (e) => (e.nonStrikerId = s.fielder(0))),
      [participant("nonStrikerId", 1)],
    ],
    [
      "a bowler from the batting side",
      (s) => withEvent(s.events, 1, (e) => (e.bowlerId = s.batter(8))),
      [participant("bowlerId", 1)],
    ],
    [
      "a fielder out",
      (s) => withEvent(s.events, 3, (e) => (e.wickets = [{ ...caught(s), playerOutId: s.fielder(4) }])),
      [participant("wickets.0.playerOutId", 3)],
    ],
    [
      "a fielder from the batting side",
      (s) =>
        withEvent(s.events, 3, (e) => {
          e.wickets = [{ ...caught(s), fielders: [{ participantId: s.batter(5), substitute: false }] }];
        }),
      [participant("wickets.0.fielders.0.participantId", 3)],
    ],
    [
      "a registered participant outside the squad, not as a substitute",
      (s) =>
        withEvent(s.events, 3, (e) => {
          e.wickets = [{ ...caught(s), fielders: [{ participantId: registeredOutsider.id, substitute: false }] }];
        }),
      [participant("wickets.0.fielders.0.participantId", 3)],
    ],
    [
      "a substitute nobody registered",
      (s) =>
        withEvent(s.events, 3, (e) => {
          e.wickets = [{ ...caught(s), fielders: [{ participantId: "nobody-at-all", substitute: true }] }];
        }),
      [participant("wickets.0.fielders.0.participantId", 3)],
    ],
    [
      "a NUL character in the fixture id (reported alone: nothing is looked up with it)",
      (s) => ({
        ...submission(
          s.fixture,
          withEvent(s.events, 1, (e) => delete e.strikerId),
        ),
        fixtureId: "a\u0000b",
      }),
      [invalid("fixtureId")],
    ],
    [
      "an unpaired surrogate in a substitute fielder's id and a NUL in a dismissal kind",
      (s) =>
        withEvent(s.events, 3, (e) => {
          e.wickets = [
            { ...caught(s), kind: "caught\u0000", fielders: [{ participantId: "\ud800", substitute: true }] },
          ];
        }),
      [invalid("wickets.0.kind", 3), invalid("wickets.0.fielders.0.participantId", 3)],
    ],
    [
      "a dismissal kind outside the vocabulary (exact match)",
      (s) => withEvent(s.events, 3, (e) => (e.wickets = [{ ...caught(s), kind: "Caught" }])),
      [{ code: "UNKNOWN_DISMISSAL_KIND", field: "wickets.0.kind", eventIndex: 3 }],
    ],
  ];

  it.each(cases)("%s", async (_name, body, expected) => {
    const fixture = await api.aFixtureToSubmitTo();
    const innings = fixture.innings[0] as FixtureBuilder["innings"][0];
    const scene: Scene = {
      fixture,
      events: validEvents(fixture, 4),
      batter: (i) => innings.batting.players[i]?.id as string,
      fielder: (i) => innings.bowling.players[i]?.id as string,
    };
    const made = body(scene); // the events of the submission, or the whole body
    await expectRefused(fixture, Array.isArray(made) ? submission(fixture, made) : made, expected);
    await expectAccepted(fixture, scene.events);
  });

  it("says a substitute nobody registered is no such participant, and accepts a registered one", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const innings = fixture.innings[0] as FixtureBuilder["innings"][0];
    const events = validEvents(fixture, 2);
    const runOut = (participantId: string) =>
      withEvent(events, 1, (e) => {
        e.wickets = [
          {
            kind: "run out",
            playerOutId: innings.batting.players[1]?.id,
            fielders: [
              { participantId: innings.bowling.players[3]?.id, substitute: false },
              { participantId, substitute: true },
            ],
          },
        ];
      });
    const [detail] = await expectRefused(fixture, submission(fixture, runOut("nobody-at-all")), [
      participant("wickets.0.fielders.1.participantId", 1),
    ]);
    expect(detail?.message).toBe("No such participant");
    await expectAccepted(fixture, runOut(registeredOutsider.id) as SubmittedEvent[]);
    const [, recorded] = await api.publicEvents(fixture.id);
    expect(recorded?.wickets[0]?.fielders[1]).toMatchObject({ participantId: registeredOutsider.id, substitute: true });
  });

  it("refuses an innings of another fixture as INVALID_INNINGS, storing nothing in either", async () => {
    const [fixture, other] = [await api.aFixtureToSubmitTo(), await api.aFixtureToSubmitTo()];
    const events = validEvents(fixture, 3);
    const body = submission(
      fixture,
      withEvent(events, 2, (e) => (e.inningsId = other.innings[0]?.inningsId)),
    );
    await expectRefused(fixture, body, [{ code: "INVALID_INNINGS", field: "inningsId", eventIndex: 2 }]);
    expect(await publicIds(other)).toEqual([]);
    await expectAccepted(fixture, events);
  });

  it("refuses a broken overNumber order as overNumber", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 8).slice(4); // over 0 balls 5-6, over 1 balls 1-2
    const body = submission(
      fixture,
      withEvent(events, 3, (e) => Object.assign(e, { overNumber: 0, positionInOver: 5, ballNumber: "0.6" })),
    );
    await expectRefused(fixture, body, [invalid("overNumber", 3)]);
    await expectAccepted(fixture, events);
  });
});

describe("DUPLICATE_EVENT_ID", () => {
  it("refuses an event id this fixture already holds, in any case", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const first = validEvents(fixture, 3);
    await expectAccepted(fixture, first);
    const more = validEvents(fixture, 3, { from: 4 });
    const body = submission(
      fixture,
      more.map((e, i) => (i === 0 ? e : { ...e, eventId: (first[i - 1] as SubmittedEvent).eventId.toUpperCase() })),
    );
    await expectRefused(
      fixture,
      body,
      [
        { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 1 },
        { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 2 },
      ],
      DUPLICATE,
    );
    await expectAccepted(
      fixture,
      more,
      first.map((e) => e.eventId),
    );
  });

  it("refuses an event id accepted in another fixture", async () => {
    const [elsewhere, fixture] = [await api.aFixtureToSubmitTo(), await api.aFixtureToSubmitTo()];
    const taken = validEvents(elsewhere, 3);
    await expectAccepted(elsewhere, taken);
    const events = validEvents(fixture, 3);
    const body = submission(
      fixture,
      withEvent(events, 2, (e) => (e.eventId = taken[0]?.eventId)),
    );
    await expectRefused(fixture, body, [{ code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 2 }], DUPLICATE);
    expect(await publicIds(elsewhere)).toEqual(taken.map((e) => e.eventId));
    await expectAccepted(fixture, events);
  });

  it("refuses an event id repeated within the submission, reporting the later one", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 4);
    const body = submission(
      fixture,
      withEvent(events, 3, (e) => (e.eventId = events[1]?.eventId.toUpperCase())),
    );
    await expectRefused(fixture, body, [{ code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 3 }]);
    await expectAccepted(fixture, events);
  });
});

describe("every problem in one answer, all or nothing", () => {
  it("reports 50 faults spread through 1,000 events, then accepts the 1,000 put right", async () => {
    const fixture = await api.aFixtureToSubmitTo({ matchType: "Test" });
    const [first, second] = fixture.innings as [FixtureBuilder["innings"][0], FixtureBuilder["innings"][0]];
    const events = [...validEvents(fixture, 500, { ordinal: 0 }), ...validEvents(fixture, 500, { ordinal: 1 })];
    const sideOf = (i: number) => (i < 500 ? first : second);
    const batter = (i: number, n: number) => sideOf(i).batting.players[n]?.id as string;
    const fielder = (i: number, n: number) => sideOf(i).bowling.players[n]?.id as string;
    const wicket = (i: number) => ({
      kind: "caught",
      playerOutId: batter(i, 0),
      fielders: [{ participantId: fielder(i, 1), substitute: false }],
    });
    /** Each fault is what it changes in event i (undefined: removed) and the one detail it causes. */
    type Fault = (e: SubmittedEvent, i: number) => [Record<string, unknown>, Where];
    const faults: Fault[] = [
      (_, i) => [{ strikerId: undefined }, invalid("strikerId", i)],
      (_, i) => [{ bowlerId: batter(i, 9) }, participant("bowlerId", i)],
      (_, i) => [{ runs: { offBat: 2, extras: 0, total: 3 } }, invalid("runs.total", i)],
      (e, i) => [{ ballNumber: `${e.overNumber + 1}.1` }, invalid("ballNumber", i)],
      (_, i) => [{ umpireSignal: "four" }, invalid("umpireSignal", i)],
      (_, i) => [{ inningsId: `no-innings-${i}` }, { code: "INVALID_INNINGS", field: "inningsId", eventIndex: i }],
      (_, i) => [
        { wickets: [{ ...wicket(i), kind: "timed out twice" }] },
        { code: "UNKNOWN_DISMISSAL_KIND", field: "wickets.0.kind", eventIndex: i },
      ],
      (_, i) => [{ eventId: events[i - 1]?.eventId }, { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: i }],
      (_, i) => [
        { wickets: [{ ...wicket(i), fielders: [{ participantId: batter(i, 6), substitute: false }] }] },
        participant("wickets.0.fielders.0.participantId", i),
      ],
      (_, i) => [{ sequenceNumber: events[i - 1]?.sequenceNumber }, invalid("sequenceNumber", i)],
      (_, i) => [{ runs: { offBat: 0, extras: 2, total: 2 }, extras: { byes: 1 } }, invalid("runs.extras", i)],
      (e, i) => [{ nonStrikerId: e.strikerId }, invalid("nonStrikerId", i)],
      (_, i) => [{ eventId: `event-${i}` }, invalid("eventId", i)],
      (e, i) => [{ overNumber: String(e.overNumber) }, invalid("overNumber", i)],
      (_, i) => [{ wickets: [{ ...wicket(i), playerOutId: fielder(i, 2) }] }, participant("wickets.0.playerOutId", i)],
      (_, i) => [{ extras: { noBalls: 0 } }, invalid("extras.noBalls", i)],
      (_, i) => [{ runs: { offBat: 100, extras: 0, total: 100 } }, invalid("runs.offBat", i)],
    ];
    const faulty: unknown[] = [...events];
    const expected: Where[] = [];
    for (let k = 0; k < 50; k++) {
      const i = 7 + k * 20;
      const event = events[i] as SubmittedEvent;
      const [change, where] = (faults[k % faults.length] as Fault)(event, i);
      faulty[i] = { ...event, ...change };
      expected.push(where);
    }
    // runs.offBat 100 with total 100 is also over the total's maximum of 99.
    for (const w of [...expected]) if (w.field === "runs.offBat") expected.push(invalid("runs.total", w.eventIndex));

    await expectRefused(fixture, submission(fixture, faulty), expected);
    expect(new Set(expected.map((w) => w.code))).toEqual(
      new Set([
        "INVALID_FIELD",
        "INVALID_PARTICIPANT",
        "INVALID_INNINGS",
        "UNKNOWN_DISMISSAL_KIND",
        "DUPLICATE_EVENT_ID",
      ]),
    );

    const data = await expectAccepted(fixture, events);
    expect(data.eventCount).toBe(1000);
  });

  it("stores nothing when one of 21 events is bad", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 21);
    const bowling = fixture.innings[0]?.batting.players[10]?.id;
    const body = submission(
      fixture,
      withEvent(events, 13, (e) => (e.bowlerId = bowling)),
    );
    await expectRefused(fixture, body, [participant("bowlerId", 13)]);
    const types = (await streamOf(fixture)).map((e) => e.type);
    expect(types).not.toContain("SubmissionAccepted");
    expect(types).not.toContain("DeliveryRecorded");
    await expectAccepted(fixture, events);
  });
});

describe("before validation: JSON, size, authentication and role", () => {
  it("answers 400 INVALID_JSON to malformed JSON", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const text = JSON.stringify(submission(fixture, validEvents(fixture, 2)));
    expectError(await api.api.post(PATH, text.slice(0, -2), { token: api.admin.token }), 400, "INVALID_JSON");
    expect(await publicIds(fixture)).toEqual([]);
  });

  it("answers 415 UNSUPPORTED_MEDIA_TYPE to valid JSON sent as another content type", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const text = JSON.stringify(submission(fixture, validEvents(fixture, 2)));
    const res = await api.api.post(PATH, text, { token: api.admin.token, headers: { "content-type": "text/plain" } });
    expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await publicIds(fixture)).toEqual([]);
  });

  it("answers 413 PAYLOAD_TOO_LARGE to a body over 1 MB", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const body = { ...submission(fixture, validEvents(fixture, 2)), padding: "x".repeat(1024 * 1024) };
    expectError(await api.submit(body), 413, "PAYLOAD_TOO_LARGE");
    expect(await publicIds(fixture)).toEqual([]);
  });

  it("answers 422 to a top-level array, null or number, naming the body", async () => {
    for (const body of [[], null, 42]) expect(located(details(await api.submit(body)))).toEqual([invalid("body")]);
  });

  it("answers 401 without a bearer token", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    expectUnauthorized(await api.api.post(PATH, submission(fixture, validEvents(fixture, 2))));
    expect(await publicIds(fixture)).toEqual([]);
  });

  it("answers 403 to a viewer and to a submitter of the fixture's competition, before reading the body", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const viewer = await api.signIn();
    const submitter = await api.aSubmitter(api.admin, fixture.competition.id);
    const valid = submission(fixture, validEvents(fixture, 2));
    for (const person of [viewer, submitter]) {
      expectError(await api.submit(valid, person.token), 403, "FORBIDDEN");
      expectError(await api.submit({ events: "none" }, person.token), 403, "FORBIDDEN");
      expectError(await api.api.post(PATH, "{not json", { token: person.token }), 403, "FORBIDDEN");
    }
    expect(await publicIds(fixture)).toEqual([]);
  });
});

describe("an accepted submission", () => {
  it("answers 201 with the acceptance result", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 5);
    const before = Date.now();
    const res = await api.submit(submission(fixture, events));
    expect(res.status, res.text).toBe(201);
    const { data } = res.body as { data: Record<string, unknown> };
    expect(data).toEqual({
      submissionId: expect.stringMatching(UUID),
      fixtureId: fixture.id,
      submitterId: api.admin.id,
      status: "accepted",
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/),
      schemaVersion: "1.0",
      eventCount: 5,
    });
    const receivedAt = Date.parse(data.receivedAt as string);
    expect(receivedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(receivedAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("retains who sent what and a SHA-256 of the validated payload; event ids are kept in lower case", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const innings = fixture.innings[0] as FixtureBuilder["innings"][0];
    const valid = validEvents(fixture, 4);
    // As sent: upper-case ids, absent extras and wickets, a fielder without its substitute flag, no ball label.
    const sent = valid.map((e, i) => {
      const { extras, wickets, ballNumber, ...rest } = { ...e, eventId: e.eventId.toUpperCase() };
      if (i === 0) return rest;
      if (i === 1) return { ...rest, extras, wickets, ballNumber };
      if (i === 2)
        return {
          ...rest,
          extras,
          ballNumber,
          runs: { offBat: 0, extras: 0, total: 0 },
          wickets: [
            {
              kind: "caught",
              playerOutId: innings.batting.players[0]?.id,
              fielders: [{ participantId: innings.bowling.players[4]?.id }],
            },
          ],
        };
      return { ...rest, extras, wickets };
    });
    const res = await api.submit(submission(fixture, sent));
    expect(res.status, res.text).toBe(201);
    const { submissionId, receivedAt } = (res.body as { data: { submissionId: string; receivedAt: string } }).data;

    // The validated submission: ids lower case, every default filled in, nothing else added.
    const validated = {
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      events: sent.map((e) => ({
        extras: {},
        wickets: [],
        ...e,
        eventId: e.eventId.toLowerCase(),
        ...("wickets" in e && e.wickets.length > 0
          ? {
              wickets: e.wickets.map((w) => ({ ...w, fielders: w.fielders.map((f) => ({ ...f, substitute: false })) })),
            }
          : {}),
      })),
    };
    const sha256 = createHash("sha256")
      .update(canonicalize(validated) ?? "")
      .digest("hex");

    const ledger = await streamOf(fixture);
    const accepted = ledger.filter((e) => e.type === "SubmissionAccepted");
    expect(accepted).toHaveLength(1);
    expect(accepted[0]?.data).toEqual({
      submissionId,
      submitterId: api.admin.id,
      receivedAt,
      schemaVersion: "1.0",
      eventIds: valid.map((e) => e.eventId.toLowerCase()),
      payloadSha256: sha256,
      upload: null,
    });
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);

    const recorded = ledger.filter((e) => e.type === "DeliveryRecorded").map((e) => e.data as Record<string, unknown>);
    expect(recorded.map((d) => [d.eventId, d.submissionId])).toEqual(
      valid.map((e) => [e.eventId.toLowerCase(), submissionId]),
    );
    expect(await publicIds(fixture)).toEqual(valid.map((e) => e.eventId.toLowerCase()));
  });
});
