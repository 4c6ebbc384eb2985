import { ApiError } from "../../http/errors.js";

/*
 * The account deciders' domain errors. They are ApiErrors (one error hierarchy, one
 * code→status map in src/http/errors.ts), so a route lets them through and the app's
 * `onError` answers with the envelope; each carries the id of the account concerned.
 */

/** 409: a role or access change the state machine does not allow; nothing is written. */
export class InvalidSubmitterAccessTransition extends ApiError {
  constructor(
    readonly accountId: string,
    message: string,
  ) {
    super("INVALID_SUBMITTER_ACCESS_TRANSITION", message);
  }
}

/** 404: the target account does not exist. */
export class AccountNotFound extends ApiError {
  constructor(readonly accountId: string) {
    super("NOT_FOUND", "No such user");
  }
}

/** 403: the actor may not take this decision (not an active admin). */
export class NotAllowed extends ApiError {
  constructor(
    readonly accountId: string,
    message = "Only an administrator may do this",
  ) {
    super("FORBIDDEN", message);
  }
}

/** 422: competitions named in the request body that do not exist (referential invalidity). */
export class UnknownCompetition extends ApiError {
  constructor(
    readonly accountId: string,
    readonly fields: { field: string; competitionId: string }[],
  ) {
    super(
      "VALIDATION_FAILED",
      "The request body is invalid",
      fields.map(({ field, competitionId }) => ({
        code: "COMPETITION_NOT_FOUND",
        message: `No competition ${competitionId}`,
        field,
      })),
      422,
    );
  }
}
