import { describe, expect, it } from "vitest";
import { DomainError, type DomainErrorCode, type Problem } from "../../src/commands/errors.js";
import { ApiError, asApiError, fromDomainError } from "../../src/http/errors.js";

/** Typed by every code, so a new DomainErrorCode does not compile here until it is given its status. */
const statuses: Record<DomainErrorCode, number> = {
  VALIDATION_FAILED: 422,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  DUPLICATE_EVENT_ID: 409,
  EVENT_CONFLICT: 409,
  INVALID_SUBMITTER_ACCESS_TRANSITION: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  SELF_REVIEW_FORBIDDEN: 403,
  BATCH_NOT_REVIEWABLE: 409,
  BATCH_NOT_STAGED: 409,
  BATCH_NOT_RESUBMITTABLE: 409,
  ITEM_NOT_RESUBMITTABLE: 409,
  ITEM_NOT_REVIEWABLE: 409,
  REVIEW_INCOMPLETE: 409,
};

class Refusal extends DomainError {
  constructor(
    readonly code: DomainErrorCode,
    details?: Problem[],
  ) {
    super(`Refused with ${code}`, details);
  }
}

describe("a domain refusal answered over HTTP", () => {
  it.each(Object.entries(statuses) as [DomainErrorCode, number][])("%s is answered %i", (code, status) => {
    const answer = fromDomainError(new Refusal(code));
    expect(answer.status).toBe(status);
    expect(answer.toBody()).toEqual({ error: { code, message: `Refused with ${code}` } });
  });

  it("carries the refusal's problems as the envelope's details", () => {
    const problem = { code: "INVALID_FIELD", message: "Expected a number", field: "runs.offBat", eventIndex: 2 };
    expect(fromDomainError(new Refusal("VALIDATION_FAILED", [problem])).toBody().error.details).toEqual([problem]);
  });

  it("reports the API's own errors as they are and domain refusals mapped; anything else is not reported", () => {
    const own = new ApiError("UNAUTHORIZED", "Sign in");
    expect(asApiError(own)).toBe(own);
    expect(asApiError(new Refusal("FORBIDDEN"))).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(asApiError(new Error("database password is hunter2"))).toBeUndefined();
  });
});
