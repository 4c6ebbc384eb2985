import { DomainError } from "../errors.js";

/*
 * The account deciders' refusals: each carries the id of the account concerned, and a route
 * lets it through to the app's one `onError`. Nothing is written when one is thrown.
 */

/** A role or access change the state machine does not allow. */
export class InvalidSubmitterAccessTransition extends DomainError {
  readonly code = "INVALID_SUBMITTER_ACCESS_TRANSITION";
  constructor(
    readonly accountId: string,
    message: string,
  ) {
    super(message);
  }
}

/** The target account does not exist. */
export class AccountNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly accountId: string) {
    super("No such user");
  }
}

/** The actor may not take this decision (not an active admin). */
export class NotAllowed extends DomainError {
  readonly code = "FORBIDDEN";
  constructor(
    readonly accountId: string,
    message = "Only an administrator may do this",
  ) {
    super(message);
  }
}

/** Competitions named in the command that do not exist: the command is invalid, each one a problem. */
export class UnknownCompetition extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(
    readonly accountId: string,
    readonly fields: { field: string; competitionId: string }[],
  ) {
    super(
      "The request body is invalid",
      fields.map(({ field, competitionId }) => ({
        code: "COMPETITION_NOT_FOUND",
        message: `No competition ${competitionId}`,
        field,
      })),
    );
  }
}
