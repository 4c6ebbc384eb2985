/**
 * What the domain refuses, apart from how HTTP answers it: a decider, a check or a command
 * handler throws a DomainError; `src/http/errors.ts` alone maps its code to a status.
 */

/** One problem of a command's input: what is wrong and where (a dotted path, and the event when there are many). */
export type Problem = { code: string; message: string; field: string; eventIndex?: number };

/** Top-level problems first, then each event's in order; stable within an event. Sorts in place. */
export const byEvent = (problems: Problem[]) => problems.sort((a, b) => (a.eventIndex ?? -1) - (b.eventIndex ?? -1));

/** The codes a domain refusal carries; each names a kind of refusal, not a status. */
export type DomainErrorCode =
  /** The command is invalid in itself or against what the ledger holds; `details` says where. */
  | "VALIDATION_FAILED"
  /** The thing the command is about does not exist (or must look as if it did not). */
  | "NOT_FOUND"
  /** The actor may not do this. */
  | "FORBIDDEN"
  /** An event id the ledger already holds. */
  | "DUPLICATE_EVENT_ID"
  /** The command collides with what the ledger holds (a place taken, a stream that kept moving). */
  | "EVENT_CONFLICT"
  /** A role or access change the account's state machine does not allow. */
  | "INVALID_SUBMITTER_ACCESS_TRANSITION"
  /** An idempotency key already used for other content. */
  | "IDEMPOTENCY_KEY_REUSED"
  /** A batch's sender reviewing or publishing it: review takes a second person. */
  | "SELF_REVIEW_FORBIDDEN"
  /** A batch not (or no longer) in a state where it can be reviewed or published. */
  | "BATCH_NOT_REVIEWABLE"
  /** Reference mappings for a batch that is not staged. */
  | "BATCH_NOT_STAGED"
  /** Replacements for a batch that is still validating or is published. */
  | "BATCH_NOT_RESUBMITTABLE"
  /** Replacements for items that can be published as they are. */
  | "ITEM_NOT_RESUBMITTABLE"
  /** Items named for review that validation did not accept. */
  | "ITEM_NOT_REVIEWABLE"
  /** Publication asked for while accepted items wait for a decision. */
  | "REVIEW_INCOMPLETE";

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;

  constructor(
    message: string,
    readonly details?: Problem[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}
