import type { Review } from "../../../streams/batch.js";
import { type DeliveryState, type FixtureEvent, recordDelivery } from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState, sameState } from "../../../streams/fixture-state.js";
import { ledgerDelivery, SCHEMA_VERSION, type SubmittedEvent, submissionOrder } from "../../submissions/schema.js";
import { checkCorrection, checkSubmission, type ReferenceFacts } from "../../submissions/validate.js";
import type { Problem } from "../errors.js";
import type { DecidedEvent, Decider } from "../handle.js";

/**
 * Publication of a batch's approved items into one fixture's ledger (docs/batches.md,
 * "Publication"), decided against the fixture's stream as it stands: the ledger may have
 * moved since validation, so each item is checked again here, and the expected revision
 * makes a racing change decide again.
 */

/** An approved item, resolved to the ledger's ids; a correction names the delivery it replaces. */
export type ApprovedItem = { ordinal: number; review: Review; event: SubmittedEvent; correctsEventId?: string };

export type PublishItems = {
  fixtureId: string;
  batchReference: string;
  items: ApprovedItem[];
  facts: ReferenceFacts;
};

/** What publication did with each item: published now (with the states it replaced), already, or refused. */
export type PublicationPlan = {
  published: { ordinal: number; eventId: string; revision: number; states: DeliveryState[] }[];
  already: { ordinal: number; eventId: string; revision: number }[];
  refused: { ordinal: number; code: string; message: string }[];
};

/**
 * Requirements:
 * - an item this batch already published here is not published again (the fixture's
 *   `BatchItemsPublished` records say which), so a retry publishes nothing twice;
 * - new deliveries are checked as one direct submission against the ledger as it is: an
 *   item with a problem is refused with it, and the rest checked again without it;
 * - a correction is checked as a direct correction of the live delivery it names, after
 *   the new deliveries: one whose target is gone, that is now invalid or conflicting, or
 *   that would change nothing, is refused;
 * - what stands is one append: `BatchItemsPublished` first (batch, items, approvals), then
 *   each new delivery at revision 1 (recorded once in the whole log) and each correction
 *   at revision + 1 of the live one, its reason the approval's.
 */
export function planPublication(command: PublishItems, fixture: FixtureState): PublicationPlan {
  const earlier = fixture.batchItems.get(command.batchReference) ?? new Map();
  const plan: PublicationPlan = { published: [], already: [], refused: [] };
  const pending = command.items.filter((item) => {
    const done = earlier.get(item.ordinal);
    if (done) plan.already.push({ ordinal: item.ordinal, ...done });
    return !done;
  });
  // Checked on a copy the accepted items are folded into, so each later check sees them.
  const scratch = structuredClone(fixture);
  // Approvals come in the order reviewers gave them: a submission lists deliveries in its own.
  const fresh = pending
    .filter((item) => item.correctsEventId === undefined)
    .sort((a, b) => submissionOrder(a.event, b.event));
  for (const item of acceptedDeliveries(command, fresh, scratch, plan)) {
    const data = {
      ...ledgerDelivery(item.event),
      eventId: item.event.eventId,
      sequenceNumber: item.event.sequenceNumber,
    };
    evolveFixture(scratch, { type: "DeliveryRecorded", data: { ...data, submissionId: null } });
    plan.published.push({
      ordinal: item.ordinal,
      eventId: data.eventId,
      revision: 1,
      states: [ledgerDelivery(item.event)],
    });
  }
  for (const item of pending)
    if (item.correctsEventId !== undefined) correct(command, item, item.correctsEventId, scratch, plan);
  plan.published.sort((a, b) => a.ordinal - b.ordinal);
  plan.refused.sort((a, b) => a.ordinal - b.ordinal);
  return plan;
}

/** The new deliveries that stand as one submission: each with a problem is refused, and the rest checked again. */
function acceptedDeliveries(
  command: PublishItems,
  items: ApprovedItem[],
  fixture: FixtureState,
  plan: PublicationPlan,
) {
  let remaining = items;
  while (remaining.length > 0) {
    const body = { fixtureId: command.fixtureId, schemaVersion: SCHEMA_VERSION, events: remaining.map((i) => i.event) };
    const found = checkSubmission(body, fixture, command.facts);
    const problems = [...found.invalid, ...found.conflicts];
    if (problems.length === 0) return remaining;
    const firstOf = new Map<number, Problem>();
    for (const p of problems)
      if (p.eventIndex !== undefined && !firstOf.has(p.eventIndex)) firstOf.set(p.eventIndex, p);
    // A problem of the whole submission (none here is expected) refuses every item.
    if (firstOf.size === 0) firstOf.set(0, problems[0] as Problem);
    for (const [index, p] of firstOf) refuse(plan, remaining[index] as ApprovedItem, p);
    remaining = remaining.filter((_, index) => !firstOf.has(index));
  }
  return remaining;
}

function correct(
  command: PublishItems,
  item: ApprovedItem,
  eventId: string,
  fixture: FixtureState,
  plan: PublicationPlan,
) {
  const current = fixture.deliveries.get(eventId);
  if (!current)
    return refuse(plan, item, {
      code: "CORRECTION_TARGET_NOT_FOUND",
      message: "No published delivery has this event id",
    });
  const reason = item.review.reason;
  const body = {
    fixtureId: command.fixtureId,
    schemaVersion: SCHEMA_VERSION,
    reason,
    event: { ...item.event, eventId },
  };
  const target = { fixtureId: command.fixtureId, eventId, sequenceNumber: current.sequenceNumber };
  const found = checkCorrection(body, target, fixture, command.facts);
  const [problem] = [...found.invalid, ...found.conflicts];
  const delivery = ledgerDelivery(item.event);
  if (problem) return refuse(plan, item, problem);
  if (sameState(current.state, delivery))
    return refuse(plan, item, { code: "CORRECTION_UNCHANGED", message: "The delivery's live state is already this" });
  const revision = current.revision + 1;
  evolveFixture(fixture, { type: "DeliveryCorrected", data: { eventId, revision, reason, delivery } });
  plan.published.push({ ordinal: item.ordinal, eventId, revision, states: [current.state, delivery] });
}

const refuse = (plan: PublicationPlan, item: ApprovedItem, { code, message }: Pick<Problem, "code" | "message">) => {
  plan.refused.push({ ordinal: item.ordinal, code, message });
};

/** The plan as the fixture's events: nothing when nothing is published now. */
export function publicationEvents(command: PublishItems, plan: PublicationPlan): DecidedEvent<FixtureEvent>[] {
  if (plan.published.length === 0) return [];
  const items = new Map(command.items.map((i) => [i.ordinal, i]));
  const reviews = new Map<string, { review: Review; ordinals: number[] }>();
  for (const { ordinal } of plan.published) {
    const { review } = items.get(ordinal) as ApprovedItem;
    const key = JSON.stringify(review);
    const group = reviews.get(key) ?? { review, ordinals: [] };
    group.ordinals.push(ordinal);
    reviews.set(key, group);
  }
  const record: DecidedEvent<FixtureEvent> = {
    type: "BatchItemsPublished",
    data: {
      batchReference: command.batchReference,
      items: plan.published.map(({ ordinal, eventId, revision }) => ({ ordinal, eventId, revision })),
      reviews: [...reviews.values()].map(({ review: { decision: _, ...review }, ordinals }) => ({
        ...review,
        ordinals,
      })),
    },
  };
  return [
    record,
    ...plan.published.map(({ ordinal, eventId, revision }): DecidedEvent<FixtureEvent> => {
      const { event, review } = items.get(ordinal) as ApprovedItem;
      const delivery = ledgerDelivery(event);
      return revision === 1
        ? recordDelivery({ ...delivery, eventId, sequenceNumber: event.sequenceNumber, submissionId: null })
        : { type: "DeliveryCorrected", data: { eventId, revision, reason: review.reason, delivery } };
    }),
  ];
}

export const publishItems: Decider<PublishItems, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: (command, fixture) => publicationEvents(command, planPublication(command, fixture)),
};
