import { type Account, mayWriteIn } from "../../streams/account-state.js";
import { BatchForbidden, SelfReviewForbidden } from "../commands/batches/errors.js";
import type { BatchView } from "./queries.js";

/**
 * Who sees a batch: its sender and administrators. To anyone else it is the same refusal as
 * a reference no batch has (the specification's rule for batches).
 */
export function visibleTo<Batch extends BatchView>(account: Account, batch: Batch | undefined): Batch {
  if (!batch || (batch.ownerAccountId !== account.accountId && account.role !== "admin"))
    throw new BatchForbidden("No batch of yours has this reference");
  return batch;
}

/** Sending packages: a submitter or an administrator (the package's competition is checked once it is read). */
export function maySend(account: Account): void {
  if (account.role !== "submitter" && account.role !== "admin")
    throw new BatchForbidden("Only a submitter or an administrator may send batches");
}

type Owned = { ownerAccountId: string; competitionId: string };

/** An administrator whose scope holds the batch's competition (every administrator's does). */
export function mayAdminister(account: Account, batch: Owned, refusal = "No batch of yours has this reference"): void {
  if (account.role !== "admin" || !mayWriteIn(account, batch.competitionId)) throw new BatchForbidden(refusal);
}

/**
 * Reviewing and publishing are for an administrator in the batch's competition scope who
 * did not send it. The sender is told why; anyone else is refused as for a batch they cannot see.
 */
export function mayReview(account: Account, batch: Owned): void {
  if (account.accountId === batch.ownerAccountId) throw new SelfReviewForbidden();
  mayAdminister(account, batch);
}

/** Mapping references: the sender while they may send for its competition, or an administrator. */
export function mayResolve(account: Account, batch: Owned): void {
  if (account.accountId === batch.ownerAccountId && mayWriteIn(account, batch.competitionId)) return;
  mayAdminister(account, batch);
}

/** Replacing items: only the batch's sender, while they may send for its competition. */
export function mayResubmit(account: Account, batch: Owned): void {
  if (account.accountId !== batch.ownerAccountId || !mayWriteIn(account, batch.competitionId))
    throw new BatchForbidden("Only the batch's sender resubmits its items");
}
