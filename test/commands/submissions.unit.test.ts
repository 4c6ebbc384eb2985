import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { type CorrectDelivery, correctDelivery } from "../../src/commands/submissions/correct.js";
import { DeliveryNotFound, LedgerConflict } from "../../src/commands/submissions/errors.js";
import { type SubmitDeliveries, submitDeliveries } from "../../src/commands/submissions/submit.js";
import { directSubmissionSchema } from "../../src/submissions/schema.js";
import { type DeliveryState, type FixtureEvent, recordingId } from "../../streams/fixture.js";
import { aFixture, type FixtureBuilder } from "../support/cricket-builders.js";
import { spec } from "../support/decider.js";
import { submission, validEvents } from "../support/submissions.js";

/** The fixture's own stream: schedule, squads, toss, innings and any deliveries the builder recorded. */
const ledgerOf = (fixture: FixtureBuilder) => fixture.ledger();

const anOpenFixture = (deliveries = 0) => aFixture().withInnings({ deliveries }).withInnings({ deliveries: 0 });

const SUBMISSION_ID = "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f";
const record: SubmitDeliveries["record"] = {
  submissionId: SUBMISSION_ID,
  submitterId: "admin-1",
  receivedAt: "2026-01-02T03:04:05.000Z",
  payloadSha256: "a".repeat(64),
  upload: null,
};

/** A validated submission of these events, as the route hands it to the decider. */
const submitting = (fixture: FixtureBuilder, events: unknown[]): SubmitDeliveries => ({
  submission: directSubmissionSchema.parse(submission(fixture, events)),
  record,
});

/** The LedgerConflict a decision throws (failing when it throws anything else or nothing). */
function conflictOf(decide: () => unknown): LedgerConflict {
  try {
    decide();
  } catch (error) {
    expect(error).toBeInstanceOf(LedgerConflict);
    return error as LedgerConflict;
  }
  throw new Error("expected a LedgerConflict, but the decision was taken");
}

const submit = (given: FixtureEvent[], command: SubmitDeliveries) => () =>
  submitDeliveries.decide(command, given.reduce(submitDeliveries.evolve, submitDeliveries.initialState()));
const correct = (given: FixtureEvent[], command: CorrectDelivery) => () =>
  correctDelivery.decide(command, given.reduce(correctDelivery.evolve, correctDelivery.initialState()));

describe("submitDeliveries", () => {
  it("emits the submission's record, then one DeliveryRecorded per event under an id derived from its event id", () => {
    const fixture = anOpenFixture();
    const events = validEvents(fixture, 3);
    const second = validEvents(fixture, 1, { ordinal: 1 });
    const all = [...events, ...second];
    spec(submitDeliveries)
      .given(ledgerOf(fixture))
      .when(submitting(fixture, all))
      .thenEmits([
        {
          type: "SubmissionAccepted",
          data: { ...record, schemaVersion: "1.0", eventIds: all.map((e) => e.eventId) },
        },
        ...all.map(({ eventId, sequenceNumber, ballNumber, ...rest }) => ({
          id: recordingId(eventId),
          type: "DeliveryRecorded",
          data: { ...rest, ballNumber: ballNumber ?? null, eventId, sequenceNumber, submissionId: SUBMISSION_ID },
        })),
      ]);
  });

  it("derives the recording id from the event id alone, so the same delivery has one id in any fixture", () => {
    const [one, other] = [anOpenFixture(), anOpenFixture()];
    const [event] = validEvents(one, 1);
    const sameIdElsewhere = { ...validEvents(other, 1)[0], eventId: event?.eventId };
    const idIn = (fixture: FixtureBuilder, e: unknown) => submit(ledgerOf(fixture), submitting(fixture, [e]))()[1]?.id;
    expect(idIn(one, event)).toBe(idIn(other, sameIdElsewhere));
    expect(idIn(one, event)).toBe(recordingId(event?.eventId as string));
    expect(idIn(one, validEvents(one, 1)[0])).not.toBe(idIn(one, event));
  });

  it("refuses the whole submission when an event id is already accepted in the fixture (DUPLICATE_EVENT_ID)", () => {
    const fixture = anOpenFixture(4);
    const held = fixture.deliveries[2]?.eventId as string;
    const events = validEvents(fixture, 3, { from: 5 });
    const error = conflictOf(
      submit(ledgerOf(fixture), submitting(fixture, [events[0], { ...events[1], eventId: held }, events[2]])),
    );
    expect(error.code).toBe("DUPLICATE_EVENT_ID");
    expect(error.status).toBe(409);
    expect(error.details).toEqual([
      { code: "DUPLICATE_EVENT_ID", message: expect.any(String), field: "eventId", eventIndex: 1 },
    ]);
  });

  it("refuses an event id whose delivery has been corrected since: it is still accepted once", () => {
    const fixture = anOpenFixture(2);
    const held = fixture.deliveries[0]?.eventId as string;
    const given = [...ledgerOf(fixture), ...fixture.correction(held, { runs: { offBat: 6, extras: 0, total: 6 } })];
    const [event] = validEvents(fixture, 1, { from: 3 });
    spec(submitDeliveries)
      .given(given)
      .when(submitting(fixture, [{ ...event, eventId: held }]))
      .thenThrows(LedgerConflict);
  });

  it("refuses a sequence number a live delivery of the innings holds (EVENT_CONFLICT on sequenceNumber)", () => {
    const fixture = anOpenFixture(6);
    // Sequence 3 is taken; the ball position (over 5) is free.
    const [event] = validEvents(fixture, 1, { from: 31 });
    const error = conflictOf(submit(ledgerOf(fixture), submitting(fixture, [{ ...event, sequenceNumber: 3 }])));
    expect(error.code).toBe("EVENT_CONFLICT");
    expect(error.details).toEqual([
      {
        code: "EVENT_CONFLICT",
        message: expect.stringContaining(fixture.deliveries[2]?.eventId as string),
        field: "sequenceNumber",
        eventIndex: 0,
      },
    ]);
  });

  it("refuses a ball position a live delivery of the innings holds (EVENT_CONFLICT on positionInOver)", () => {
    const fixture = anOpenFixture(6);
    const [event] = validEvents(fixture, 1, { from: 31 });
    const held = fixture.deliveries[4] as NonNullable<(typeof fixture.deliveries)[number]>;
    const error = conflictOf(
      submit(
        ledgerOf(fixture),
        submitting(fixture, [
          {
            ...event,
            overNumber: held.state.overNumber,
            positionInOver: held.state.positionInOver,
            ballNumber: undefined,
          },
        ]),
      ),
    );
    expect(error.details).toEqual([
      {
        code: "EVENT_CONFLICT",
        message: expect.stringContaining(held.eventId),
        field: "positionInOver",
        eventIndex: 0,
      },
    ]);
  });

  it("judges a position by where the delivery stands now: a corrected delivery frees its old place", () => {
    const fixture = anOpenFixture(3);
    const moved = fixture.deliveries[2] as NonNullable<(typeof fixture.deliveries)[number]>;
    const { overNumber, positionInOver } = moved.state;
    const given = [
      ...ledgerOf(fixture),
      ...fixture.correction(moved.eventId, { overNumber: 7, positionInOver: 0, ballNumber: "7.1" }),
    ];
    const [event] = validEvents(fixture, 1, { from: 4 });
    const freed = { ...event, overNumber, positionInOver, ballNumber: undefined };
    expect(submit(given, submitting(fixture, [freed]))()).toHaveLength(2);
    const taken = { ...event, overNumber: 7, positionInOver: 0, ballNumber: undefined };
    expect(conflictOf(submit(given, submitting(fixture, [taken]))).details?.map((d) => d.field)).toEqual([
      "positionInOver",
    ]);
  });

  it("refuses two events of one submission claiming the same sequence number or ball position", () => {
    const fixture = anOpenFixture();
    const [a, b, c] = validEvents(fixture, 3);
    const error = conflictOf(
      submit(
        ledgerOf(fixture),
        submitting(fixture, [
          a,
          { ...b, sequenceNumber: a?.sequenceNumber },
          { ...c, overNumber: 0, positionInOver: 0 },
        ]),
      ),
    );
    expect(error.code).toBe("EVENT_CONFLICT");
    expect(error.details?.map((d) => [d.field, d.eventIndex])).toEqual([
      ["sequenceNumber", 1],
      ["positionInOver", 2],
    ]);
  });

  it("lets the same sequence number and position be used in another innings", () => {
    const fixture = anOpenFixture(6);
    const [event] = validEvents(fixture, 1, { ordinal: 1 }); // sequence 1, over 0 position 0 of innings 2
    expect(submit(ledgerOf(fixture), submitting(fixture, [event]))().map((e) => e.type)).toEqual([
      "SubmissionAccepted",
      "DeliveryRecorded",
    ]);
  });
});

describe("correctDelivery", () => {
  const aRecordedFixture = () => anOpenFixture(8);
  const replacing = (
    fixture: FixtureBuilder,
    index: number,
    changes: Partial<DeliveryState>,
    reason = "replay",
  ): CorrectDelivery => {
    const delivery = fixture.deliveries[index] as NonNullable<(typeof fixture.deliveries)[number]>;
    return { eventId: delivery.eventId, reason, delivery: { ...delivery.state, ...changes } };
  };

  it("appends the next revision with the whole new state and the reason", () => {
    const fixture = aRecordedFixture();
    const command = replacing(fixture, 3, { runs: { offBat: 6, extras: 0, total: 6 } }, "six, not four");
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when(command)
      .thenEmits([
        {
          type: "DeliveryCorrected",
          data: { eventId: command.eventId, revision: 2, reason: "six, not four", delivery: command.delivery },
        },
      ]);
  });

  it("counts revisions on from the live one: a third correction is revision 4", () => {
    const fixture = aRecordedFixture();
    const eventId = fixture.deliveries[1]?.eventId as string;
    const given = [
      ...ledgerOf(fixture),
      ...fixture.correction(eventId, { runs: { offBat: 1, extras: 0, total: 1 } }),
      ...fixture.correction(eventId, { runs: { offBat: 2, extras: 0, total: 2 } }),
    ];
    const events = correct(given, replacing(fixture, 1, { runs: { offBat: 3, extras: 0, total: 3 } }))();
    expect(events).toEqual([{ type: "DeliveryCorrected", data: expect.objectContaining({ revision: 4 }) }]);
  });

  it("keeps the inherited sequence: the emitted state has none, and the fold keeps the delivery's own", () => {
    const fixture = aRecordedFixture();
    const command = replacing(fixture, 5, { runs: { offBat: 4, extras: 0, total: 4 } });
    const given = ledgerOf(fixture);
    const [emitted] = correct(given, command)() as [FixtureEvent];
    expect(Object.keys((emitted.data as { delivery: object }).delivery)).not.toContain("sequenceNumber");
    const after = [...given, emitted].reduce(correctDelivery.evolve, correctDelivery.initialState());
    expect(after.deliveries.get(command.eventId)).toEqual({ revision: 2, sequenceNumber: 6, state: command.delivery });
  });

  it("appends nothing when the replacement equals the live state (key order and absent fields aside)", () => {
    const fixture = aRecordedFixture();
    const delivery = fixture.deliveries[2] as NonNullable<(typeof fixture.deliveries)[number]>;
    const { wickets, extras, ...rest } = delivery.state;
    const reordered = { wickets, ...rest, extras } as DeliveryState;
    spec(correctDelivery)
      .given(ledgerOf(fixture))
      .when({ eventId: delivery.eventId, reason: "same again", delivery: reordered })
      .thenEmits([]);
  });

  it("appends nothing when the replacement equals the last correction, not the recorded state", () => {
    const fixture = aRecordedFixture();
    const eventId = fixture.deliveries[0]?.eventId as string;
    const given = [...ledgerOf(fixture), ...fixture.correction(eventId, { runs: { offBat: 6, extras: 0, total: 6 } })];
    spec(correctDelivery)
      .given(given)
      .when(replacing(fixture, 0, {}))
      .thenEmits([]);
  });

  it("refuses an event id the fixture does not hold (404)", () => {
    const fixture = aRecordedFixture();
    const command = { ...replacing(fixture, 0, {}), eventId: randomUUID() };
    spec(correctDelivery).given(ledgerOf(fixture)).when(command).thenThrows(DeliveryNotFound);
    expect(() => correct(ledgerOf(fixture), command)()).toThrow(expect.objectContaining({ status: 404 }));
  });

  it("refuses a move onto a ball position another live delivery holds (EVENT_CONFLICT on event.positionInOver)", () => {
    const fixture = aRecordedFixture();
    const held = fixture.deliveries[1] as NonNullable<(typeof fixture.deliveries)[number]>;
    const { overNumber, positionInOver } = held.state;
    const error = conflictOf(
      correct(ledgerOf(fixture), replacing(fixture, 4, { overNumber, positionInOver, ballNumber: null })),
    );
    expect(error.code).toBe("EVENT_CONFLICT");
    expect(error.details).toEqual([
      { code: "EVENT_CONFLICT", message: expect.stringContaining(held.eventId), field: "event.positionInOver" },
    ]);
  });

  it("refuses a move to another innings where its inherited sequence is held (EVENT_CONFLICT on event.inningsId)", () => {
    const fixture = aFixture().withInnings({ deliveries: 4 }).withInnings({ deliveries: 4 });
    const second = fixture.innings[1]?.inningsId as string;
    // Sequence 2 of the second innings is held; over 9 of it is free.
    const command = replacing(fixture, 1, { inningsId: second, overNumber: 9, positionInOver: 0, ballNumber: null });
    const error = conflictOf(correct(ledgerOf(fixture), command));
    expect(error.details).toEqual([
      {
        code: "EVENT_CONFLICT",
        message: expect.stringContaining(fixture.deliveries[5]?.eventId as string),
        field: "event.inningsId",
      },
    ]);
  });

  it("lets a delivery keep, or move within, its own place: its own position never conflicts", () => {
    const fixture = aRecordedFixture();
    const delivery = fixture.deliveries[3] as NonNullable<(typeof fixture.deliveries)[number]>;
    const samePlace = replacing(fixture, 3, { runs: { offBat: 2, extras: 0, total: 2 } });
    expect(correct(ledgerOf(fixture), samePlace)()).toHaveLength(1);
    const freePlace = replacing(fixture, 3, { overNumber: 12, positionInOver: 3, ballNumber: "12.4" });
    expect(correct(ledgerOf(fixture), freePlace)()).toEqual([
      { type: "DeliveryCorrected", data: expect.objectContaining({ eventId: delivery.eventId, revision: 2 }) },
    ]);
  });

  it("lets a delivery move into a place another delivery has since left", () => {
    const fixture = aRecordedFixture();
    const left = fixture.deliveries[6] as NonNullable<(typeof fixture.deliveries)[number]>;
    const { overNumber, positionInOver } = left.state;
    const given = [...ledgerOf(fixture), ...fixture.correction(left.eventId, { overNumber: 15, positionInOver: 0 })];
    expect(correct(given, replacing(fixture, 2, { overNumber, positionInOver, ballNumber: null }))()).toHaveLength(1);
  });
});
