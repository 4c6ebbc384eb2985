import type { BatchEvent, BatchPublished, Review } from "../../../streams/batch.js";
import type { Batch } from "../../../streams/batch-state.js";
import type { EventData } from "../../../streams/types.js";
import {
  BatchNotReviewable,
  BatchRequestInvalid,
  ItemNotReviewable,
  ReviewIncomplete,
  SelfReviewForbidden,
} from "./errors.js";

/**
 * Review and publication of a validated batch, as the batch stream decides them
 * (docs/batches.md, "Review" and "Publication"). Pure: the reviewer, the time and what
 * publication found come in the commands.
 */

/** An administrator's decision on items (their ordinals) or on every accepted item (`all`). */
export type ReviewItems = {
  type: "ReviewItems";
  reviewerAccountId: string;
  decision: Review["decision"];
  reason: string;
  reviewedAt: string;
  items: number[] | "all";
};

/** What publication did in the fixtures' ledgers: the batch's status follows from it. */
export type RecordPublication = {
  type: "RecordPublication";
  publisherAccountId: string;
} & Omit<EventData<typeof BatchPublished>, "status">;

/**
 * Requirements of a review:
 * - the batch's sender never reviews it (403 SELF_REVIEW_FORBIDDEN);
 * - only a `validated` batch is reviewed: one still judged, `staged` (resolve it first: its
 *   accepted items may change with it), `rejected`, or already published is 409
 *   BATCH_NOT_REVIEWABLE;
 * - ordinals that name no item are 422; only `accepted` items are reviewed, others are 409
 *   ITEM_NOT_REVIEWABLE naming each (validation already said they cannot be published);
 * - `all` names every accepted item;
 * - a later decision on an item replaces the earlier one until publication; repeating the
 *   decisions that stand appends nothing.
 */
export function review(command: ReviewItems, batch: Batch): BatchEvent[] {
  reviewable(batch, command.reviewerAccountId);
  const ordinals = command.items === "all" ? acceptedOrdinals(batch) : named(command.items, batch);
  if (ordinals.length === 0) throw new ItemNotReviewable("The batch has no accepted item to review");
  const { type: _, items: __, ...decided } = command;
  const standing = (o: number) => {
    const r = batch.reviews.get(o);
    return (
      r?.decision === decided.decision &&
      r.reason === decided.reason &&
      r.reviewerAccountId === decided.reviewerAccountId
    );
  };
  if (ordinals.every(standing)) return [];
  return [{ type: "BatchItemsReviewed", data: { ...decided, ordinals } }];
}

/**
 * The approved items of a batch ready to publish, with the approval of each. Requirements:
 * the publisher is not the sender; the batch is validated and not yet published; every
 * accepted item has a decision (409 REVIEW_INCOMPLETE), so publication decides nothing by
 * omission.
 */
export function approvals(batch: Batch, publisherAccountId: string): Map<number, Review> {
  reviewable(batch, publisherAccountId);
  const undecided = acceptedOrdinals(batch).filter((o) => !batch.reviews.has(o));
  if (undecided.length > 0)
    throw new ReviewIncomplete(
      `${undecided.length} accepted item(s) wait for a decision (the first: ${undecided[0]}); approve or reject them first`,
    );
  // A decision on an item a later round judged otherwise (no longer accepted) publishes nothing.
  return new Map([...batch.reviews].filter(([o, r]) => r.decision === "approved" && batch.outcomes[o] === "accepted"));
}

/**
 * Publication's record on the batch: `published` when every item of the package is in the
 * ledger by it, `partially_published` when some are, `rejected` when none is. Recorded
 * once: a retry after it appends nothing.
 */
export function recordPublication(command: RecordPublication, batch: Batch): BatchEvent[] {
  if (batch.published) return [];
  approvals(batch, command.publisherAccountId);
  const { published, refused } = command;
  const status =
    published.length === 0
      ? "rejected"
      : published.length === batch.outcomes.length
        ? "published"
        : "partially_published";
  return [{ type: "BatchPublished", data: { status, published, refused } }];
}

function reviewable(batch: Batch, accountId: string): void {
  if (accountId === batch.ownerAccountId) throw new SelfReviewForbidden();
  if (batch.published) throw new BatchNotReviewable("The batch is already published");
  const status = batch.validation?.completed ? batch.validation.status : "validating";
  if (status !== "validated")
    throw new BatchNotReviewable(
      status === "staged"
        ? "The batch is staged: resolve its references before review"
        : `Only a validated batch is reviewed; this one is ${status}`,
    );
}

const acceptedOrdinals = (batch: Batch) => batch.outcomes.flatMap((o, ordinal) => (o === "accepted" ? [ordinal] : []));

/** The ordinals named, once each, in ascending order; each must be an accepted item. */
function named(items: number[], batch: Batch): number[] {
  const unknown = items.flatMap((o, i) =>
    o >= batch.outcomes.length
      ? [{ code: "ITEM_NOT_FOUND", message: `The batch has no item ${o}`, field: `items.${i}` }]
      : [],
  );
  if (unknown.length > 0) throw new BatchRequestInvalid("Items named for review are not in the batch", unknown);
  const refused = items.flatMap((o, i) => {
    const outcome = batch.outcomes[o];
    return outcome === "accepted"
      ? []
      : [
          {
            code: "ITEM_NOT_REVIEWABLE",
            message: `Item ${o} is ${outcome}: only accepted items are reviewed`,
            field: `items.${i}`,
          },
        ];
  });
  if (refused.length > 0)
    throw new ItemNotReviewable("Only items validation accepted are reviewed; nothing was recorded", refused);
  return [...new Set(items)].sort((a, b) => a - b);
}
