import { byEvent, DomainError, type Problem } from "../errors.js";

/*
 * What the delivery commands refuse. Nothing is written when one is thrown; the details say
 * what and where, fields named within the event that `eventIndex` names.
 */

type Input = "submission" | "correction";

/** 422: problems the sender has to mend; any conflicts found in the same pass come with them. */
export class DeliveriesInvalid extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(
    readonly input: Input,
    details: Problem[],
  ) {
    super(`The ${input} is invalid; nothing was stored`, details);
  }
}

/**
 * 409: a well-formed input that conflicts with the ledger: an event id already accepted
 * (DUPLICATE_EVENT_ID, when that is all), or a place or order of an innings held by a live
 * delivery (EVENT_CONFLICT). The details give each conflict its own code.
 */
export class LedgerConflict extends DomainError {
  readonly code: "DUPLICATE_EVENT_ID" | "EVENT_CONFLICT";
  constructor(details: Problem[]) {
    const code = details.every((d) => d.code === "DUPLICATE_EVENT_ID") ? "DUPLICATE_EVENT_ID" : "EVENT_CONFLICT";
    super(
      code === "DUPLICATE_EVENT_ID"
        ? "An event id is already accepted; nothing was stored"
        : "The events conflict with accepted deliveries; nothing was stored",
      details,
    );
    this.code = code;
  }
}

/** 404: no accepted delivery has this event id. */
export class DeliveryNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly eventId: string) {
    super("No accepted delivery has this event id");
  }
}

/** 404: no accepted submission has this id. */
export class SubmissionNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly submissionId: string) {
    super("No accepted submission has this id");
  }
}

/** 403: the actor may not correct deliveries, or not in this fixture's competition. */
export class CorrectionForbidden extends DomainError {
  readonly code = "FORBIDDEN";
  constructor(
    readonly actor: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Refuses an input with problems, in one answer: 422 with every problem when any is the
 * sender's to mend, else 409 with the conflicts. Returns when there is nothing to refuse.
 */
export function refuseProblems(input: Input, found: { invalid: Problem[]; conflicts: Problem[] }): void {
  if (found.invalid.length > 0) throw new DeliveriesInvalid(input, byEvent([...found.invalid, ...found.conflicts]));
  if (found.conflicts.length > 0) throw new LedgerConflict(found.conflicts);
}
