import { DeliveryCorrected, type DeliveryState, type FixtureEvent } from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState, sameState } from "../../../streams/fixture-state.js";
import type { Decider } from "../handle.js";
import { DeliveryNotFound, LedgerConflict } from "./errors.js";
import { Occupancy } from "./occupancy.js";

export type CorrectDelivery = { eventId: string; reason: string; delivery: DeliveryState };

/**
 * Requirements:
 * - a correction of a live delivery appends its next immutable revision (revision + 1 of the
 *   one it read; the stream's expected revision makes a racing correction decide again on
 *   the new state, so no revision is skipped, repeated or lost);
 * - the occurrence sequence is inherited, so it stays the delivery's own;
 * - a replacement identical to the live state appends nothing: a repeated PUT is harmless;
 * - a replacement whose ball position (or inherited sequence, in another innings) another
 *   live delivery holds is refused (409 EVENT_CONFLICT);
 * - an event id the fixture does not hold is 404.
 */
export const correctDelivery: Decider<CorrectDelivery, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: ({ eventId, reason, delivery }, state) => {
    const current = state.deliveries.get(eventId);
    if (!current) throw new DeliveryNotFound(eventId);
    if (sameState(current.state, delivery)) return [];
    const conflicts = new Occupancy(state).place(eventId, current.sequenceNumber, delivery, {});
    if (conflicts.length > 0)
      throw new LedgerConflict(
        "EVENT_CONFLICT",
        conflicts.map((c) => ({ ...c, field: c.field === "sequenceNumber" ? "event.inningsId" : `event.${c.field}` })),
      );
    return [{ type: DeliveryCorrected.type, data: { eventId, revision: current.revision + 1, reason, delivery } }];
  },
};
