import type { Account } from "../../../streams/account-state.js";
import { DeliveryCorrected, type FixtureEvent } from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState, sameState } from "../../../streams/fixture-state.js";
import { mayCorrectInCompetition } from "../../submissions/access.js";
import { ledgerDelivery } from "../../submissions/schema.js";
import { checkCorrection, type ReferenceFacts } from "../../submissions/validate.js";
import type { Decider } from "../handle.js";
import { DeliveryNotFound, refuseProblems } from "./errors.js";

export type CorrectDelivery = {
  fixtureId: string;
  eventId: string;
  body: unknown;
  facts: ReferenceFacts;
  corrector: Account;
};

/**
 * Requirements:
 * - an event id the fixture does not hold is 404; a submitter outside the fixture's
 *   competition is 403, before the body is judged;
 * - every problem of the body in one pass (as a submission's, fields under `event.`); the
 *   identity fields a state read from the history holds are accepted when they are the
 *   delivery's own;
 * - a correction of a live delivery appends its next immutable revision (revision + 1 of the
 *   one it read; the stream's expected revision makes a racing correction decide again on
 *   the new state, so no revision is skipped, repeated or lost); the sequence is inherited;
 * - a replacement identical to the live state appends nothing: a repeated PUT is harmless;
 * - a ball (or inherited sequence, in another innings) another live delivery holds, or an
 *   order crossing one, is a conflict (409 EVENT_CONFLICT when it is the only problem).
 */
export const correctDelivery: Decider<CorrectDelivery, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: ({ fixtureId, eventId, body, facts, corrector }, fixture) => {
    const current = fixture.deliveries.get(eventId);
    const competitionId = fixture.scheduled?.competitionId;
    if (!current || competitionId === undefined) throw new DeliveryNotFound(eventId);
    mayCorrectInCompetition(corrector, competitionId);
    const target = { fixtureId, eventId, sequenceNumber: current.sequenceNumber };
    const found = checkCorrection(body, target, fixture, facts);
    const replacement = found.value && { reason: found.value.reason, delivery: ledgerDelivery(found.value.event) };
    // Checked before the conflicts: resending the live state is harmless even where the ledger
    // already held a crossing when this rule came in.
    if (replacement && sameState(current.state, replacement.delivery)) return [];
    refuseProblems("correction", found);
    const { reason, delivery } = replacement as NonNullable<typeof replacement>;
    return [{ type: DeliveryCorrected.type, data: { eventId, revision: current.revision + 1, reason, delivery } }];
  },
};
