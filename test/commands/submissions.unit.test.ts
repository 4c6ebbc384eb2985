import { randomUUID } from "node:crypto";
import canonicalize from "canonicalize";
import { describe, expect, it } from "vitest";
import { type CorrectDelivery, correctDelivery } from "../../src/commands/submissions/correct.js";
import {
  CorrectionForbidden,
  DeliveriesInvalid,
  DeliveryNotFound,
  LedgerConflict,
} from "../../src/commands/submissions/errors.js";
import { JSON_SOURCE, type SubmitDeliveries, sha256, submitDeliveries } from "../../src/commands/submissions/submit.js";
import { csvField } from "../../src/submissions/csv.js";
import { directSubmissionSchema } from "../../src/submissions/schema.js";
import type { ReferenceFacts } from "../../src/submissions/validate.js";
import type { Account } from "../../streams/account-state.js";
import { type DeliveryState, type FixtureEvent, recordingId } from "../../streams/fixture.js";
import { aFixture, aParticipant, type FixtureBuilder } from "../support/cricket-builders.js";
import { spec } from "../support/decider.js";
import { KINDS, type SubmittedEvent, submission, validEvents } from "../support/submissions.js";

/*
 * The delivery deciders as given/when/then specs: given the fixture's stream, when a command
 * (the body as sent, the read models' facts), then the events, or the refusal with every
 * problem. One spec per detail code and per kind of conflict.
 */

/** The fixture's own stream: schedule, squads, toss, innings and any deliveries the builder recorded. */
const ledgerOf = (fixture: FixtureBuilder) => fixture.ledger();

const anOpenFixture = (deliveries = 0, matchType?: "ODI" | "Test") =>
  aFixture({ matchType }).withInnings({ deliveries }).withInnings({ deliveries: 0 });

const substitute = aParticipant();
const factsOf = (fixture: FixtureBuilder, more: Partial<ReferenceFacts> = {}): ReferenceFacts => ({
  dismissalKinds: new Set(KINDS),
  registered: new Set([substitute, ...fixture.home.players, ...fixture.away.players].map((p) => p.id)),
  accepted: new Set(),
  ...more,
});

const SUBMISSION_ID = "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f";
const record: SubmitDeliveries["record"] = {
  submissionId: SUBMISSION_ID,
  submitterId: "admin-1",
  receivedAt: "2026-01-02T03:04:05.000Z",
  upload: null,
};

const submitting = (fixture: FixtureBuilder, events: unknown[], more: Partial<SubmitDeliveries> = {}) => ({
  body: submission(fixture, events),
  source: JSON_SOURCE,
  facts: factsOf(fixture),
  record,
  ...more,
});

const decideOn = <C>(decider: typeof submitDeliveries | typeof correctDelivery, given: FixtureEvent[], command: C) =>
  (decider.decide as (command: C, state: ReturnType<typeof decider.initialState>) => FixtureEvent[])(
    command,
    given.reduce(decider.evolve, decider.initialState()),
  );

/** The refusal a decision throws, as its class, code and located details (failing when it decides). */
function refusalOf(decide: () => unknown) {
  try {
    decide();
  } catch (error) {
    if (!(error instanceof DeliveriesInvalid || error instanceof LedgerConflict)) throw error;
    const details = (error.details ?? []).map(({ code, field, eventIndex }) => ({
      code,
      field,
      ...(eventIndex === undefined ? {} : { eventIndex }),
    }));
    return {
      kind: error.constructor,
      code: error.code,
      details,
      messages: (error.details ?? []).map((d) => d.message),
    };
  }
  throw new Error("expected a refusal, but the decision was taken");
}

const whenSubmitted = (given: FixtureEvent[], command: SubmitDeliveries) =>
  refusalOf(() => decideOn(submitDeliveries, given, command));

describe("submitDeliveries: accepted", () => {
  it("emits the submission's record, then one DeliveryRecorded per event under an id derived from its event id", () => {
    const fixture = anOpenFixture();
    const all = [...validEvents(fixture, 3), ...validEvents(fixture, 1, { ordinal: 1 })];
    const validated = directSubmissionSchema.parse(submission(fixture, all));
    spec(submitDeliveries)
      .given(ledgerOf(fixture))
      .when(submitting(fixture, all))
      .thenEmits([
        {
          type: "SubmissionAccepted",
          data: {
            ...record,
            schemaVersion: "1.0",
            payloadSha256: sha256(canonicalize(validated) ?? ""),
            eventIds: all.map((e) => e.eventId),
          },
        },
        ...all.map(({ eventId, sequenceNumber, ballNumber, ...rest }) => ({
          id: recordingId(eventId),
          type: "DeliveryRecorded",
          data: { ...rest, ballNumber: ballNumber ?? null, eventId, sequenceNumber, submissionId: SUBMISSION_ID },
        })),
      ]);
  });

  it("fills gaps: sequence numbers and balls between accepted ones, in the same order", () => {
    const fixture = anOpenFixture();
    const [first, , third] = validEvents(fixture, 3);
    const given = [
      ...ledgerOf(fixture),
      ...decideOn(submitDeliveries, ledgerOf(fixture), submitting(fixture, [first, third])),
    ];
    const [, second] = validEvents(fixture, 2);
    expect(decideOn(submitDeliveries, given, submitting(fixture, [second]))).toHaveLength(2);
  });

  it("takes 1,000 balls in one innings of a Test, which has no over limit", () => {
    const fixture = anOpenFixture(0, "Test");
    expect(decideOn(submitDeliveries, ledgerOf(fixture), submitting(fixture, validEvents(fixture, 1000)))).toHaveLength(
      1001,
    );
  });
});

describe("submitDeliveries: each problem the sender must mend (422 VALIDATION_FAILED)", () => {
  const fixture = anOpenFixture();
  const [innings] = fixture.innings as [FixtureBuilder["innings"][0]];
  const events = validEvents(fixture, 3);
  const cases: [string, (e: SubmittedEvent[]) => unknown, { code: string; field: string; eventIndex?: number }][] = [
    ["a mistyped field", (e) => ({ ...e[1], runs: "four" }), { code: "INVALID_FIELD", field: "runs", eventIndex: 1 }],
    [
      "a sequence that does not ascend within the innings",
      (e) => ({ ...e[1], sequenceNumber: 1 }),
      { code: "INVALID_FIELD", field: "sequenceNumber", eventIndex: 1 },
    ],
    [
      "an innings this fixture does not have",
      (e) => ({ ...e[1], inningsId: "another-innings" }),
      { code: "INVALID_INNINGS", field: "inningsId", eventIndex: 1 },
    ],
    [
      "a bowler from the batting side",
      (e) => ({ ...e[1], bowlerId: innings.batting.players[3]?.id }),
      { code: "INVALID_PARTICIPANT", field: "bowlerId", eventIndex: 1 },
    ],
    [
      "a dismissal kind outside the vocabulary",
      (e) => ({ ...e[1], wickets: [{ kind: "timed out twice", playerOutId: e[1]?.strikerId, fielders: [] }] }),
      { code: "UNKNOWN_DISMISSAL_KIND", field: "wickets.0.kind", eventIndex: 1 },
    ],
    [
      "an event id repeated within the submission",
      (e) => ({ ...e[1], eventId: e[0]?.eventId }),
      { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 1 },
    ],
    [
      "an over beyond a T20's twenty",
      (e) => ({ ...e[1], overNumber: 20, positionInOver: 0, ballNumber: "20.1", sequenceNumber: 200 }),
      { code: "INVALID_FIELD", field: "overNumber", eventIndex: 1 },
    ],
  ];
  for (const [what, change, detail] of cases)
    it(`reports ${what}`, () => {
      const sent = [events[0], change(events), events[2]];
      // The third event follows the second in every case but the misordered one.
      const found = whenSubmitted(ledgerOf(fixture), submitting(fixture, sent));
      expect(found.kind).toBe(DeliveriesInvalid);
      expect(found.details).toContainEqual(detail);
    });

  it("reports a fixture that does not exist on fixtureId", () => {
    const nowhere = anOpenFixture();
    const found = whenSubmitted([], submitting(nowhere, validEvents(nowhere, 1)));
    expect(found.details).toEqual([{ code: "FIXTURE_NOT_FOUND", field: "fixtureId" }]);
  });

  it("names the limit of each format: 50 overs in an ODI, one over in a super over", () => {
    const odi = anOpenFixture(0, "ODI");
    const [beyond] = validEvents(odi, 1, { from: 50 * 6 + 1 });
    const found = whenSubmitted(ledgerOf(odi), submitting(odi, [beyond]));
    expect(found.details).toEqual([{ code: "INVALID_FIELD", field: "overNumber", eventIndex: 0 }]);
    expect(found.messages[0]).toBe("An innings of this ODI has 50 overs: overNumber runs from 0 to 49");

    const tied = aFixture().withInnings().withInnings().withInnings({ deliveries: 0, superOver: true });
    const superOver = tied.innings[2]?.inningsId as string;
    const [second] = validEvents(tied, 1, { ordinal: 2, from: 7 }); // over 1 of the super over
    const inSuperOver = whenSubmitted(ledgerOf(tied), submitting(tied, [{ ...second, inningsId: superOver }]));
    expect(inSuperOver.details).toEqual([{ code: "INVALID_FIELD", field: "overNumber", eventIndex: 0 }]);
    expect(inSuperOver.messages[0]).toBe("A super over has one over: overNumber must be 0");
  });

  it("says a missing field is required", () => {
    const { schemaVersion: _s, ...unversioned } = submission(fixture, events);
    const found = refusalOf(() =>
      decideOn(submitDeliveries, ledgerOf(fixture), { ...submitting(fixture, events), body: unversioned }),
    );
    expect(found.details).toEqual([{ code: "INVALID_FIELD", field: "schemaVersion" }]);
    expect(found.messages).toEqual(["Required"]);
  });

  it("names fields as the source does, with the problems only the source shows", () => {
    const broken = { ...events[1], runs: { offBat: 1, extras: 0, total: 2 } };
    const csv = {
      problems: [{ code: "INVALID_FIELD", message: "not JSON", field: "wickets", eventIndex: 2 }],
      field: csvField,
    };
    const found = whenSubmitted(
      ledgerOf(fixture),
      submitting(fixture, [events[0], broken, events[2]], { source: csv }),
    );
    expect(found.details).toEqual([
      { code: "INVALID_FIELD", field: "runsTotal", eventIndex: 1 },
      { code: "INVALID_FIELD", field: "wickets", eventIndex: 2 },
    ]);
  });
});

describe("submitDeliveries: conflicts with the ledger", () => {
  /** A fixture whose first innings holds six accepted balls (sequences 1 to 6, over 0). */
  const played = () => {
    const fixture = anOpenFixture(6);
    return { fixture, given: ledgerOf(fixture), held: fixture.deliveries };
  };

  it("refuses an event id the fixture holds (409 DUPLICATE_EVENT_ID), even once corrected", () => {
    const { fixture, given, held } = played();
    const first = held[0]?.eventId as string;
    const corrected = [...given, ...fixture.correction(first, { runs: { offBat: 6, extras: 0, total: 6 } })];
    const [next] = validEvents(fixture, 1, { from: 7 });
    const found = whenSubmitted(corrected, submitting(fixture, [{ ...next, eventId: first.toUpperCase() }]));
    expect(found).toMatchObject({ kind: LedgerConflict, code: "DUPLICATE_EVENT_ID" });
    expect(found.details).toEqual([{ code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 0 }]);
  });

  it("refuses an event id the read models hold in another fixture (409 DUPLICATE_EVENT_ID)", () => {
    const { fixture, given } = played();
    const [next] = validEvents(fixture, 1, { from: 7 });
    const elsewhere = factsOf(fixture, { accepted: new Set([next?.eventId as string]) });
    const found = whenSubmitted(given, submitting(fixture, [next], { facts: elsewhere }));
    expect(found).toMatchObject({ kind: LedgerConflict, code: "DUPLICATE_EVENT_ID" });
  });

  it("refuses a sequence number a live delivery holds (409 EVENT_CONFLICT on sequenceNumber)", () => {
    const { fixture, given, held } = played();
    const [later] = validEvents(fixture, 1, { from: 31 }); // a free ball, over 5
    const found = whenSubmitted(given, submitting(fixture, [{ ...later, sequenceNumber: 3 }]));
    expect(found).toMatchObject({ kind: LedgerConflict, code: "EVENT_CONFLICT" });
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "sequenceNumber", eventIndex: 0 }]);
    expect(found.messages[0]).toContain(held[2]?.eventId);
  });

  it("refuses a ball a live delivery holds (409 EVENT_CONFLICT on positionInOver)", () => {
    const { fixture, given, held } = played();
    const [next] = validEvents(fixture, 1, { from: 7 });
    const found = whenSubmitted(
      given,
      submitting(fixture, [{ ...next, overNumber: 0, positionInOver: 4, ballNumber: "0.5" }]),
    );
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "positionInOver", eventIndex: 0 }]);
    expect(found.messages[0]).toContain(held[4]?.eventId);
  });

  it("refuses a later sequence at an earlier ball, and an earlier sequence at a later ball (crossings)", () => {
    const fixture = anOpenFixture();
    const [first, second, third] = validEvents(fixture, 3) as [SubmittedEvent, SubmittedEvent, SubmittedEvent];
    const given = [
      ...ledgerOf(fixture),
      ...decideOn(submitDeliveries, ledgerOf(fixture), submitting(fixture, [second])),
    ];
    // Sequence 2 holds ball 0.1: sequence 3 may not come before it, nor sequence 1 after it.
    const early = { ...third, positionInOver: 0, ballNumber: "0.1" };
    const late = { ...first, positionInOver: 3, ballNumber: "0.4" };
    for (const crossing of [early, late]) {
      const found = whenSubmitted(given, submitting(fixture, [crossing]));
      expect(found).toMatchObject({ kind: LedgerConflict, code: "EVENT_CONFLICT" });
      expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "positionInOver", eventIndex: 0 }]);
      expect(found.messages[0]).toContain(second.eventId);
    }
  });

  it("reports conflicts beside problems to mend, in one 422 (the measured case: a held ball and a stranger bowling)", () => {
    const { fixture, given } = played();
    const [a, b] = validEvents(fixture, 2, { from: 7 });
    const onHeldBall = { ...a, sequenceNumber: 1001, overNumber: 0, positionInOver: 0, ballNumber: "0.1" };
    const stranger = { ...b, sequenceNumber: 1002, bowlerId: fixture.innings[0]?.batting.players[2]?.id };
    const found = whenSubmitted(given, submitting(fixture, [onHeldBall, stranger]));
    expect(found.kind).toBe(DeliveriesInvalid);
    expect(found.details).toEqual([
      { code: "EVENT_CONFLICT", field: "positionInOver", eventIndex: 0 },
      { code: "INVALID_PARTICIPANT", field: "bowlerId", eventIndex: 1 },
    ]);
  });

  it("lets the same sequence and ball be used in another innings", () => {
    const { fixture, given } = played();
    const [inSecond] = validEvents(fixture, 1, { ordinal: 1 });
    expect(decideOn(submitDeliveries, given, submitting(fixture, [inSecond]))).toHaveLength(2);
  });
});

describe("correctDelivery", () => {
  const admin: Account = {
    accountId: "admin-1",
    subject: "admin",
    displayName: "Admin",
    role: "admin",
    approvalState: null,
    requestedCompetitionId: null,
    competitionIds: [],
    disabled: false,
    tombstoned: false,
    decidedBy: "cli",
  };
  const aRecordedFixture = () => anOpenFixture(8);
  const delivery = (fixture: FixtureBuilder, index: number) =>
    fixture.deliveries[index] as NonNullable<(typeof fixture.deliveries)[number]>;
  /** A correction of delivery `index`: its whole state with `changes`, as a client sends it. */
  const replacing = (
    fixture: FixtureBuilder,
    index: number,
    changes: Partial<DeliveryState> & Record<string, unknown>,
    reason = "replay",
  ): CorrectDelivery => {
    const { eventId, state } = delivery(fixture, index);
    return {
      fixtureId: fixture.id,
      eventId,
      body: { fixtureId: fixture.id, schemaVersion: "1.0", reason, event: { ...state, ...changes } },
      facts: factsOf(fixture),
      corrector: admin,
    };
  };
  const corrected = (command: CorrectDelivery) =>
    ({ ...(command.body as { event: DeliveryState }).event }) as DeliveryState;
  const whenCorrected = (given: FixtureEvent[], command: CorrectDelivery) =>
    refusalOf(() => decideOn(correctDelivery, given, command));

  it("appends the next revision with the whole new state and the reason", () => {
    const fixture = aRecordedFixture();
    const command = replacing(fixture, 3, { runs: { offBat: 6, extras: 0, total: 6 } }, "six, not four");
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when(command)
      .thenEmits([
        {
          type: "DeliveryCorrected",
          data: { eventId: command.eventId, revision: 2, reason: "six, not four", delivery: corrected(command) },
        },
      ]);
  });

  it("counts revisions on from the live one: a third correction is revision 4", () => {
    const fixture = aRecordedFixture();
    const eventId = delivery(fixture, 1).eventId;
    const given = [
      ...ledgerOf(fixture),
      ...fixture.correction(eventId, { runs: { offBat: 1, extras: 0, total: 1 } }),
      ...fixture.correction(eventId, { runs: { offBat: 2, extras: 0, total: 2 } }),
    ];
    expect(
      decideOn(correctDelivery, given, replacing(fixture, 1, { runs: { offBat: 3, extras: 0, total: 3 } })),
    ).toEqual([{ type: "DeliveryCorrected", data: expect.objectContaining({ revision: 4 }) }]);
  });

  it("takes back a state as the history shows it: its own event id and sequence number are accepted", () => {
    const fixture = aRecordedFixture();
    const { eventId, sequenceNumber, state } = delivery(fixture, 5);
    const runs = { ...state.runs, offBat: 2, total: state.runs.extras + 2 };
    const asHistoryShows = replacing(fixture, 5, { eventId: eventId.toUpperCase(), sequenceNumber, runs });
    const [emitted] = decideOn(correctDelivery, ledgerOf(fixture), asHistoryShows) as [FixtureEvent];
    const emittedState = (emitted.data as { delivery: DeliveryState }).delivery;
    expect(Object.keys(emittedState)).not.toContain("sequenceNumber");
    expect(Object.keys(emittedState)).not.toContain("eventId");
    expect(emittedState.runs).toEqual(runs);
  });

  it("refuses another delivery's id or another sequence number in the state", () => {
    const fixture = aRecordedFixture();
    const found = whenCorrected(
      ledgerOf(fixture),
      replacing(fixture, 5, { eventId: delivery(fixture, 4).eventId, sequenceNumber: 5 }),
    );
    expect(found.details).toEqual([
      { code: "INVALID_FIELD", field: "event.eventId" },
      { code: "INVALID_FIELD", field: "event.sequenceNumber" },
    ]);
  });

  it("appends nothing when the replacement equals the live state (key order and absent fields aside)", () => {
    const fixture = aRecordedFixture();
    const { wickets, extras, ...rest } = delivery(fixture, 2).state;
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when(replacing(fixture, 2, { wickets, ...rest, extras }))
      .thenEmits([]);
  });

  it("refuses an event id the fixture does not hold (DeliveryNotFound)", () => {
    const fixture = aRecordedFixture();
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when({ ...replacing(fixture, 0, {}), eventId: randomUUID() })
      .thenThrows(DeliveryNotFound);
  });

  it("refuses a submitter outside the fixture's competition before judging the body", () => {
    const fixture = aRecordedFixture();
    const outsider: Account = { ...admin, role: "submitter", competitionIds: ["another-competition"] };
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when({ ...replacing(fixture, 0, { runs: "garbage" } as never), corrector: outsider })
      .thenThrows(CorrectionForbidden);
  });

  it("refuses a move onto a ball another live delivery holds (409 EVENT_CONFLICT on event.positionInOver)", () => {
    const fixture = aRecordedFixture();
    const held = delivery(fixture, 5);
    const { overNumber, positionInOver } = held.state;
    const found = whenCorrected(
      ledgerOf(fixture),
      replacing(fixture, 6, { overNumber, positionInOver, ballNumber: null }),
    );
    expect(found).toMatchObject({ kind: LedgerConflict, code: "EVENT_CONFLICT" });
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "event.positionInOver" }]);
    expect(found.messages[0]).toContain(held.eventId);
  });

  it("refuses a move to another innings where its inherited sequence is held (EVENT_CONFLICT on event.inningsId)", () => {
    const fixture = aFixture().withInnings({ deliveries: 4 }).withInnings({ deliveries: 4 });
    const second = fixture.innings[1] as FixtureBuilder["innings"][0];
    const [striker, nonStriker] = second.batting.players.map((p) => p.id) as [string, string];
    const bowlerId = second.bowling.players[8]?.id as string;
    const move = { inningsId: second.inningsId, overNumber: 9, positionInOver: 0, ballNumber: null };
    const found = whenCorrected(
      ledgerOf(fixture),
      replacing(fixture, 1, { ...move, strikerId: striker, nonStrikerId: nonStriker, bowlerId, wickets: [] }),
    );
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "event.inningsId" }]);
    expect(found.messages[0]).toContain(delivery(fixture, 5).eventId);
  });

  it("refuses a move across its neighbours (409 EVENT_CONFLICT on event.overNumber)", () => {
    const fixture = aRecordedFixture();
    const found = whenCorrected(ledgerOf(fixture), replacing(fixture, 2, { overNumber: 12, ballNumber: null }));
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "event.overNumber" }]);
    expect(found.messages[0]).toContain(delivery(fixture, 3).eventId);
  });

  it("takes back the live state even where the ledger kept a crossing, and refuses other changes that keep it", () => {
    const fixture = aRecordedFixture();
    // Accepted before the ordering rule: sequence 2 moved past sequence 3's ball.
    const given = [
      ...ledgerOf(fixture),
      ...fixture.correction(delivery(fixture, 1).eventId, { overNumber: 5, ballNumber: null }),
    ];
    expect(decideOn(correctDelivery, given, replacing(fixture, 1, {}))).toEqual([]);
    const { runs } = delivery(fixture, 1).state;
    const oneMore = { ...runs, offBat: runs.offBat + 1, total: runs.total + 1 };
    const found = whenCorrected(given, replacing(fixture, 1, { runs: oneMore }));
    expect(found).toMatchObject({ kind: LedgerConflict, code: "EVENT_CONFLICT" });
    expect(found.details).toEqual([{ code: "EVENT_CONFLICT", field: "event.overNumber" }]);
  });

  it("lets a delivery move to a free ball between its neighbours, or into a place another has left", () => {
    const fixture = aRecordedFixture();
    expect(
      decideOn(correctDelivery, ledgerOf(fixture), replacing(fixture, 7, { overNumber: 12, ballNumber: null })),
    ).toHaveLength(1);
    // The last delivery moves on a ball; the one before it takes the place it left.
    const last = delivery(fixture, 7);
    const { overNumber, positionInOver } = last.state;
    const given = [...ledgerOf(fixture), ...fixture.correction(last.eventId, { positionInOver: positionInOver + 2 })];
    expect(
      decideOn(correctDelivery, given, replacing(fixture, 6, { overNumber, positionInOver, ballNumber: null })),
    ).toHaveLength(1);
  });
});
