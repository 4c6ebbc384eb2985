import { ApiError } from "../../http/errors.js";

/*
 * The consumer decider's domain errors: ApiErrors, like the account deciders', so a route
 * lets them through and the app's `onError` answers with the envelope. Nothing is written
 * when one is thrown.
 */

/**
 * 404: no such consumer, or one another administrator owns. The two look the same, so a
 * caller learns nothing about consumers that are not theirs.
 */
export class ConsumerNotFound extends ApiError {
  constructor(readonly consumerId: number) {
    super("NOT_FOUND", "No such API consumer");
  }
}

/** 404: the caller's consumer has no key with this id. */
export class ApiKeyNotFound extends ApiError {
  constructor(
    readonly consumerId: number,
    readonly keyId: number,
  ) {
    super("NOT_FOUND", "No such API key");
  }
}

/**
 * The consumer id a new consumer was to get is taken (another issue claimed it first). Not
 * an answer to the client: the issue handler tries the next id.
 */
export class ConsumerIdTaken extends Error {
  override readonly name = "ConsumerIdTaken";
  constructor(readonly consumerId: number) {
    super(`consumer id ${consumerId} is taken`);
  }
}
