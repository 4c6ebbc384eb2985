import { DomainError } from "../errors.js";

/*
 * The consumer decider's refusals, like the account deciders': a route lets them through to
 * the app's one `onError`. Nothing is written when one is thrown.
 */

/**
 * No such consumer, or one another administrator owns. The two look the same, so a caller
 * learns nothing about consumers that are not theirs.
 */
export class ConsumerNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly consumerId: number) {
    super("No such API consumer");
  }
}

/** The caller's consumer has no key with this id. */
export class ApiKeyNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(
    readonly consumerId: number,
    readonly keyId: number,
  ) {
    super("No such API key");
  }
}

/**
 * The consumer id a new consumer was to get is taken (another issue claimed it first). Not
 * a refusal: the issue handler tries the next id.
 */
export class ConsumerIdTaken extends Error {
  override readonly name = "ConsumerIdTaken";
  constructor(readonly consumerId: number) {
    super(`consumer id ${consumerId} is taken`);
  }
}
