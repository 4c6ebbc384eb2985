import { DomainError, type Problem } from "../errors.js";

/*
 * What batch intake refuses. Nothing is stored when one is thrown.
 */

/** 422: the body cannot be taken as a package at all (its version, label or competition); the details say where. */
export class PackageUnreadable extends DomainError {
  readonly code = "VALIDATION_FAILED";
  constructor(details: Problem[]) {
    super("The package cannot be received; nothing was stored", details);
  }

  /** One problem, at `field` of the request. */
  static at(field: string, message: string, code = "INVALID_FIELD"): PackageUnreadable {
    return new PackageUnreadable([{ code, message, field }]);
  }
}

/** 409: the idempotency key already received a batch with other content. */
export class IdempotencyKeyReused extends DomainError {
  readonly code = "IDEMPOTENCY_KEY_REUSED";
  constructor(readonly batchReference: string) {
    super("This Idempotency-Key was used for a package with other content; send it under a new key");
  }
}

/**
 * 403: the batch is not the caller's to see, or there is no such batch; the two look the
 * same (the specification's rule for batches), as does a package for a competition outside
 * the sender's scope.
 */
export class BatchForbidden extends DomainError {
  readonly code = "FORBIDDEN";
}

/** 403: the batch's sender may neither review nor publish it. */
export class SelfReviewForbidden extends DomainError {
  readonly code = "SELF_REVIEW_FORBIDDEN";
  constructor() {
    super("You sent this batch: another administrator reviews and publishes it");
  }
}

/**
 * 422: a request about a batch that names what the batch has not (an item, a reference to
 * resolve) or asks for what cannot fit it (a mapping outside the reference's scope, a
 * fixture whose teams or people do not exist); the details say where. Nothing is recorded.
 */
export class BatchRequestInvalid extends DomainError {
  readonly code = "VALIDATION_FAILED";
}

/** 409: the batch is not validated (still being judged, staged, rejected) or is already published. */
export class BatchNotReviewable extends DomainError {
  readonly code = "BATCH_NOT_REVIEWABLE";
}

/** 409: reference mappings for a batch that is not staged (still validating, validated, rejected or published). */
export class BatchNotStaged extends DomainError {
  readonly code = "BATCH_NOT_STAGED";
}

/** 409: replacements for a batch still validating or already published. */
export class BatchNotResubmittable extends DomainError {
  readonly code = "BATCH_NOT_RESUBMITTABLE";
}

/** 409: replacements for items that can be published as they are (accepted and not rejected in review, duplicate, unresolved); the details name each. */
export class ItemNotResubmittable extends DomainError {
  readonly code = "ITEM_NOT_RESUBMITTABLE";
}

/** 409: items named for review whose outcome is not `accepted`; the details name each. */
export class ItemNotReviewable extends DomainError {
  readonly code = "ITEM_NOT_REVIEWABLE";
}

/** 409: accepted items still wait for a decision, so publication cannot say what becomes of them. */
export class ReviewIncomplete extends DomainError {
  readonly code = "REVIEW_INCOMPLETE";
}
