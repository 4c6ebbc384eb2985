import type {
  DeliveryCorrected,
  DeliveryRecorded,
  DeliveryState,
  FixtureEvent,
  SubmissionAccepted,
} from "../../streams/fixture.js";
import { deliveryState, evolveFixture, initialFixtureState } from "../../streams/fixture-state.js";
import type { EventData } from "../../streams/types.js";
import type { Recorded } from "../event-store/port.js";
import { type RefreshScope, refreshedScopes } from "./scopes.js";

/** A revision's whole state, as it was submitted (the sequence is the delivery's own). */
export type RevisionState = DeliveryState & { eventId: string; sequenceNumber: number };

type Origin = { submissionId: string; position: number } | null;

export type CorrectionEntry = {
  previousDeliveryId: string;
  replacementDeliveryId: string;
  previousRevision: number;
  revision: number;
  requestedBy: string;
  correctedAt: string;
  reason: string;
  previousState: RevisionState;
  resultingState: RevisionState;
  originalSubmission: Origin;
  /** Set when a batch publication made the correction; direct corrections have none. */
  batchItemId: string | null;
  /** The review a batch correction passed; direct corrections are accepted without one. */
  review: null;
  refreshedScopes: RefreshScope[];
};

export type DeliveryHistory = {
  eventId: string;
  fixtureId: string;
  currentRevision: number;
  recorded: {
    deliveryId: string;
    revision: 1;
    recordedBy: string;
    recordedAt: string;
    originalSubmission: Origin;
    state: RevisionState;
  };
  corrections: CorrectionEntry[];
};

/**
 * Replays a fixture's stream for one delivery: how it was recorded and every correction
 * since, oldest first. The delivery ids are the ids of the events that hold each revision.
 */
export function deliveryHistory(
  fixtureId: string,
  stream: readonly Recorded<FixtureEvent>[],
  eventId: string,
): DeliveryHistory | null {
  const fixture = initialFixtureState();
  let history: DeliveryHistory | null = null;
  let origin: Origin = null;
  let current: { deliveryId: string; revision: number; state: RevisionState } | null = null;
  for (const event of stream) {
    evolveFixture(fixture, event);
    if (event.type === "SubmissionAccepted") {
      const { submissionId, eventIds } = event.data as EventData<typeof SubmissionAccepted>;
      const position = eventIds.indexOf(eventId);
      if (position >= 0) origin = { submissionId, position };
    } else if (event.type === "DeliveryRecorded" && (event.data as { eventId: string }).eventId === eventId) {
      const recorded = event.data as EventData<typeof DeliveryRecorded>;
      const state = { eventId, sequenceNumber: recorded.sequenceNumber, ...deliveryState(recorded) };
      current = { deliveryId: event.id, revision: 1, state };
      history = {
        eventId,
        fixtureId,
        currentRevision: 1,
        recorded: {
          deliveryId: event.id,
          revision: 1,
          recordedBy: event.metadata.actor,
          recordedAt: event.metadata.occurredAt,
          originalSubmission: origin,
          state,
        },
        corrections: [],
      };
    } else if (event.type === "DeliveryCorrected" && history && current) {
      const corrected = event.data as EventData<typeof DeliveryCorrected>;
      if (corrected.eventId !== eventId) continue;
      const state: RevisionState = { eventId, sequenceNumber: current.state.sequenceNumber, ...corrected.delivery };
      history.corrections.push({
        previousDeliveryId: current.deliveryId,
        replacementDeliveryId: event.id,
        previousRevision: current.revision,
        revision: corrected.revision,
        requestedBy: event.metadata.actor,
        correctedAt: event.metadata.occurredAt,
        reason: corrected.reason,
        previousState: current.state,
        resultingState: state,
        originalSubmission: origin,
        batchItemId: null,
        review: null,
        refreshedScopes: refreshedScopes(fixtureId, fixture, [current.state, corrected.delivery]),
      });
      history.currentRevision = corrected.revision;
      current = { deliveryId: event.id, revision: corrected.revision, state };
    }
  }
  return history;
}
