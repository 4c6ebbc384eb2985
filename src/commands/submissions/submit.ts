import { type DeliveryState, type FixtureEvent, recordDelivery, SubmissionAccepted } from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState } from "../../../streams/fixture-state.js";
import type { EventData } from "../../../streams/types.js";
import type { ErrorDetail } from "../../http/errors.js";
import { type DirectSubmission, ledgerDelivery, type SubmittedEvent } from "../../submissions/schema.js";
import type { DecidedEvent, Decider } from "../handle.js";
import { LedgerConflict } from "./errors.js";
import { Occupancy } from "./occupancy.js";

/** A validated submission and what is retained about it (everything but the events). */
export type SubmitDeliveries = {
  submission: DirectSubmission;
  record: Omit<EventData<typeof SubmissionAccepted>, "eventIds" | "schemaVersion">;
};

/** The delivery a submitted event describes, as the ledger holds it. */
const submittedDelivery = ({ eventId: _e, sequenceNumber: _s, ...delivery }: SubmittedEvent): DeliveryState =>
  ledgerDelivery(delivery);

/**
 * Requirements:
 * - a submission is all or nothing: the record of it and every delivery in one append;
 * - an event id the fixture already holds refuses the whole submission (409 DUPLICATE_EVENT_ID);
 * - so does a sequence number or ball position of an innings already held by a live
 *   delivery, or by an earlier event of the same submission (409 EVENT_CONFLICT);
 * - each delivery becomes revision 1 and names its submission.
 */
export const submitDeliveries: Decider<SubmitDeliveries, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: ({ submission, record }, state) => {
    const { events } = submission;
    const duplicates = events.flatMap((e, eventIndex): ErrorDetail[] =>
      state.deliveries.has(e.eventId)
        ? [{ code: "DUPLICATE_EVENT_ID", message: "This event id is already accepted", field: "eventId", eventIndex }]
        : [],
    );
    if (duplicates.length > 0) throw new LedgerConflict("DUPLICATE_EVENT_ID", duplicates);
    const occupancy = new Occupancy(state);
    const conflicts = events.flatMap((e, eventIndex) =>
      occupancy.place(e.eventId, e.sequenceNumber, submittedDelivery(e), { eventIndex }),
    );
    if (conflicts.length > 0) throw new LedgerConflict("EVENT_CONFLICT", conflicts);
    const accepted: DecidedEvent<FixtureEvent> = {
      type: SubmissionAccepted.type,
      data: { ...record, schemaVersion: submission.schemaVersion, eventIds: events.map((e) => e.eventId) },
    };
    return [
      accepted,
      ...events.map((e) =>
        recordDelivery({
          ...submittedDelivery(e),
          eventId: e.eventId,
          sequenceNumber: e.sequenceNumber,
          submissionId: record.submissionId,
        }),
      ),
    ];
  },
};
