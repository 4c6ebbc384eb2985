import { z } from "@hono/zod-openapi";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DomainError, type DomainErrorCode, type Problem } from "../commands/errors.js";
import { WeatherProviderFailure } from "../weather/provider.js";

/**
 * How HTTP answers each domain refusal; the compiler holds it to every code. A domain
 * VALIDATION_FAILED is a command body that means nothing valid: 422, not a bad query's 400.
 */
export const DOMAIN_STATUS = {
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
} as const satisfies Record<DomainErrorCode, ContentfulStatusCode>;

/** The domain's refusals but VALIDATION_FAILED, which a bad query answers with 400. */
const { VALIDATION_FAILED: _, ...domainRefusals } = DOMAIN_STATUS;

/** Every error code the API answers with, and the status each one carries. */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  MALFORMED_REQUEST: 400,
  UNAUTHORIZED: 401,
  API_KEY_UNAUTHORIZED: 401,
  ...domainRefusals,
  UNSUPPORTED_API_VERSION: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  TRACE_CHANGED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  DATE_UNSUPPORTED: 422,
  EXPORT_TOO_LARGE: 422,
  RATE_LIMIT_EXCEEDED: 429,
  QUOTA_EXCEEDED: 429,
  REQUEST_HEADERS_TOO_LARGE: 431,
  INTERNAL_SERVER_ERROR: 500,
  ACCOUNT_DELETION_UNAVAILABLE: 501,
  UPSTREAM_ERROR: 502,
  DATABASE_UNAVAILABLE: 503,
  ARTIFACT_UNAVAILABLE: 503,
  IDENTITY_PROVIDER_UNAVAILABLE: 503,
  NOT_READY: 503,
  RATE_LIMIT_UNAVAILABLE: 503,
  WEATHER_SERVICE_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Retry-After of every 503: the database watch probes twice a second, Redis reconnects within 2 s. */
export const UNAVAILABLE_RETRY_SECONDS = 2;

/** Every code, as the contract's `Error.code` enum lists them: an ApiError takes no other. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** RFC 9110 §11.6.1: a 401 names the scheme the client should authenticate with. */
const CHALLENGES: Partial<Record<ErrorCode, string>> = { UNAUTHORIZED: "Bearer", API_KEY_UNAUTHORIZED: "ApiKey" };

/** An envelope's detail item is a domain Problem as it is. */
export type ErrorDetail = Problem;

export const errorDetailSchema = z
  .object({
    code: z.string().openapi({ example: "INVALID_FIELD" }),
    message: z.string().openapi({ example: "Expected a number" }),
    field: z.string().openapi({
      description:
        "Dotted path of the offending input. Inside a submitted event it is the path within that event, which `eventIndex` names (`wickets.0.fielders.2.participantId` with `eventIndex: 3`; in an uploaded CSV, the column); elsewhere the path in the body (`confirmation`, `body` for a body that is not an object), or the query or path parameter's name.",
      example: "wickets.0.fielders.2.participantId",
    }),
    eventIndex: z.number().int().min(0).optional().openapi({
      description:
        "Zero-based index of the submitted event the problem is in (in an uploaded CSV, its data row, 0 for the first after the header); absent for problems outside the events.",
      example: 3,
    }),
  })
  .openapi("ErrorDetail");

export const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).openapi({
        description: "What went wrong, as a stable code.",
        example: "NOT_FOUND",
      }),
      message: z.string().openapi({ description: "Safe, human-readable explanation.", example: "No such resource" }),
      details: z.array(errorDetailSchema).optional(),
    }),
  })
  .openapi("Error");

/**
 * An error the API reports in its envelope. Handlers and middleware throw these; one
 * `onError` turns them into responses, so handlers hold no try/catch.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Overrides the code's usual status, e.g. 422 for VALIDATION_FAILED on a request body. */
    readonly status: ContentfulStatusCode = ERROR_STATUS[code],
  ) {
    super(message);
  }

  /** Extra response headers: the authentication challenge of a 401, unless one was given, and any added. */
  headers(): Record<string, string> {
    const challenge = this.challenge ?? CHALLENGES[this.code];
    return {
      ...(challenge ? { "WWW-Authenticate": challenge } : {}),
      // Whatever is unavailable is probed or reconnected within seconds.
      ...(this.status === 503 ? { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) } : {}),
      ...this.extraHeaders,
    };
  }

  private challenge?: string;
  private extraHeaders: Record<string, string> = {};

  /** Answers with these headers too (Retry-After and RateLimit-* on a 429, say). */
  withHeaders(headers: Record<string, string>): this {
    this.extraHeaders = { ...this.extraHeaders, ...headers };
    return this;
  }

  /** Answers with this `WWW-Authenticate` challenge instead of the code's usual one. */
  withChallenge(challenge: string): this {
    this.challenge = challenge;
    return this;
  }

  toBody() {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

/** The answer to a domain refusal: its code, message and problems in the envelope, at its code's status. */
export const fromDomainError = (error: DomainError) =>
  new ApiError(error.code, error.message, error.details, DOMAIN_STATUS[error.code]);

/** How each way the weather provider fails is answered (the specification's 502, 503, 504). */
const PROVIDER_FAILURE_CODE = {
  bad_answer: "UPSTREAM_ERROR",
  unreachable: "WEATHER_SERVICE_UNAVAILABLE",
  timeout: "UPSTREAM_TIMEOUT",
} as const satisfies Record<WeatherProviderFailure["kind"], ErrorCode>;

/** The ApiError an error is answered with when it is one the API reports (its own, the domain's, the weather provider's); otherwise none. */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (error instanceof WeatherProviderFailure) return new ApiError(PROVIDER_FAILURE_CODE[error.kind], error.message);
  return undefined;
}

export const notFound = (what = "resource") => new ApiError("NOT_FOUND", `No such ${what}`);

const refusal = (description: string) => ({
  description,
  content: { "application/json": { schema: errorEnvelopeSchema } },
});

/** Documents one refusal of an operation in its own words: `...errorResponse(409, "TRACE_CHANGED: …")`. */
export const errorResponse = <S extends ContentfulStatusCode>(status: S, description: string) =>
  ({ [status]: refusal(description) }) as Record<S, ReturnType<typeof refusal>>;

/** Documents an error response in an operation: `errorResponses(400, 404)`. */
export const errorResponses = (...statuses: ContentfulStatusCode[]) =>
  Object.fromEntries(statuses.map((status) => [status, refusal(errorDescriptions[status] ?? "Error")]));

const errorDescriptions: Partial<Record<ContentfulStatusCode, string>> = {
  400: "Invalid query, path parameter or JSON (VALIDATION_FAILED, INVALID_JSON)",
  401: "Missing or invalid credentials",
  403: "Not allowed",
  404: "Unknown resource (NOT_FOUND)",
  409: "Conflict with the current state",
  413: "Body over 1 MB (PAYLOAD_TOO_LARGE)",
  415: "Body sent with a Content-Type the operation does not take (UNSUPPORTED_MEDIA_TYPE)",
  416: "The range asked for starts beyond the end (RANGE_NOT_SATISFIABLE)",
  422: "Invalid request body (VALIDATION_FAILED)",
  429: "Rate limit or quota exceeded",
  500: "Unexpected failure (INTERNAL_SERVER_ERROR); no detail is given",
  503: "A dependency is unavailable",
};
