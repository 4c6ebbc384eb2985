import { ALWAYS_ANSWERED } from "../read-api/health.js";
import { DOMAIN_STATUS, ERROR_STATUS, type ErrorCode } from "./errors.js";
import { headerRefs, RESPONSE_HEADERS, type ResponseHeaderName } from "./response-headers.js";

/*
 * The answers the app's shared middleware gives every operation, declared once here from what
 * each operation's own definition says about it (its path, method, body, security, whether
 * it is deprecated or rate limited) instead of in every route file: the error statuses
 * `createApp`, the access middleware and `onError` can answer with, and the headers they set.
 * A route lists only what is its own; what it lists wins.
 */

type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> };
type Operation = {
  "x-implementation-status"?: string;
  deprecated?: boolean;
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, unknown> };
  responses: Record<string, Response>;
};
type Document = { paths?: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };

/** What an operation's definition says about the answers the shared middleware gives it. */
type Traits = {
  /** Under /api/v1: every answer carries API-Version. */
  versioned: boolean;
  /** Needs the database, so it answers 503 while the database is away (all of /api/v1 but health and readiness). */
  gated: boolean;
  /** Not a GET: a body is counted against the size limit. */
  write: boolean;
  /** The media types of the body it takes; none for an operation that takes no body. */
  media: string[];
  /** Needs a bearer token (`requireCaller`). */
  bearer: boolean;
  /** Takes an API key (`canonicalReadAccess`, `requireConsumer`): limited, and keyed answers carry the consumer's limits. */
  keyed: boolean;
  /** Rate limited (it documents a 429): its answers report the limit. */
  limited: boolean;
  deprecated: boolean;
};

function traitsOf(path: string, method: string, operation: Operation): Traits {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const keyed = schemes.includes("apiKey");
  return {
    versioned: path.startsWith("/api/v1/"),
    gated: path.startsWith("/api/v1/") && !ALWAYS_ANSWERED.has(path),
    write: method !== "get",
    media: Object.keys(operation.requestBody?.content ?? {}),
    bearer: schemes.includes("bearerAuth"),
    keyed,
    limited: keyed || "429" in operation.responses,
    deprecated: operation.deprecated === true,
  };
}

const RATE_LIMIT: ResponseHeaderName[] = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
const QUOTA: ResponseHeaderName[] = ["X-Quota-Limit", "X-Quota-Remaining", "X-Quota-Reset"];

/** The error statuses the shared middleware may answer an implemented operation with, and what each means there. */
function sharedStatuses(t: Traits): Record<string, string> {
  const json = t.media.includes("application/json");
  const statuses: Record<string, string> = {
    400: `VALIDATION_FAILED: an invalid path or query parameter, or an unknown query parameter (each named in \`details\`)${json ? "; INVALID_JSON: the body is not valid JSON" : ""}; MALFORMED_REQUEST: a path with a \`.\` or \`..\` segment`,
    500: "INTERNAL_SERVER_ERROR: an unexpected failure; no detail is given",
  };
  if (t.bearer) {
    statuses[401] = "UNAUTHORIZED: no bearer token, or one that does not verify (`WWW-Authenticate: Bearer`)";
    statuses[403] = "FORBIDDEN: the account is disabled, or its role or scope does not allow this";
  }
  if (t.keyed) {
    statuses[401] =
      "API_KEY_UNAUTHORIZED: an X-API-Key that is malformed, unknown or revoked, none where one is required, or a key sent in Authorization instead (`WWW-Authenticate: ApiKey`)";
    statuses[429] =
      "RATE_LIMIT_EXCEEDED: the minute window is used up; QUOTA_EXCEEDED: the consumer's daily quota is. With Retry-After";
  }
  const unavailable = [
    ...(t.gated
      ? [
          "DATABASE_UNAVAILABLE: the database does not answer just now; nothing was done",
          "NOT_READY: a read model the answer needs is being rebuilt for this version of the service (just after an upgrade)",
        ]
      : []),
    ...(t.keyed
      ? ["RATE_LIMIT_UNAVAILABLE: the shared limit counter cannot be reached; nothing was admitted or counted"]
      : []),
  ];
  if (unavailable.length > 0) statuses[503] = `${unavailable.join("; ")}. Retry after Retry-After seconds`;
  if (t.write) statuses[413] = "PAYLOAD_TOO_LARGE: the body is over 1 MB (1,048,576 bytes)";
  if (t.media.length > 0)
    statuses[415] = `UNSUPPORTED_MEDIA_TYPE: the body is not sent as ${t.media.map((type) => `\`${type}\``).join(" or ")}`;
  if (json) statuses[422] = "VALIDATION_FAILED: the body is invalid (each problem in `details`)";
  else if (t.write && t.media.length === 0)
    statuses[422] = "VALIDATION_FAILED: a body was sent, and this operation takes none";
  return statuses;
}

/** The headers the shared middleware sets on an answer of `status`. */
function sharedHeaders(t: Traits, status: string): ResponseHeaderName[] {
  return [
    "X-Request-Id",
    ...(t.versioned ? (["API-Version"] as const) : []),
    ...(t.limited || status === "429" ? RATE_LIMIT : []),
    ...(t.keyed ? QUOTA : []),
    ...(status === "429" || status === "503" ? (["Retry-After"] as const) : []),
    // Any request with credentials gets no-store or private (security-headers.ts), whatever the operation.
    "Cache-Control",
    ...(status === "401" ? (["WWW-Authenticate"] as const) : []),
    ...(t.deprecated ? (["Deprecation", "Link"] as const) : []),
  ];
}

const ERROR_CONTENT = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

const carries = (code: string, status: string): code is ErrorCode =>
  String(ERROR_STATUS[code as ErrorCode]) === status ||
  String(DOMAIN_STATUS[code as keyof typeof DOMAIN_STATUS]) === status;

/**
 * The code an answer of `status` shows: the first its description names that carries that
 * status, else the first code that does.
 */
function exampleCode(status: string, description: string): ErrorCode | undefined {
  const named = description.match(/\b[A-Z][A-Z_]+[A-Z]\b/g)?.find((code) => carries(code, status));
  return named ?? (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => carries(code, status));
}

/**
 * An example of an error answer in the envelope, with the code and meaning its description
 * gives first, so a reader of the reference sees a 429 as a 429 (and not every error as the
 * schema's one example).
 */
function withExample(status: string, response: Response): Response {
  const json = response.content?.["application/json"] as Record<string, unknown> | undefined;
  const code = Number(status) >= 400 && json && !json.example ? exampleCode(status, response.description) : undefined;
  if (!json || !code) return response;
  const meaning =
    (response.description.split(`${code}: `)[1] ?? response.description).split(/; |\. /)[0]?.trim() ?? code;
  const message = `${meaning[0]?.toUpperCase()}${meaning.slice(1)}`.replace(/[.,:]$/, "");
  return { ...response, content: { "application/json": { ...json, example: { error: { code, message } } } } };
}

function completeOperation(path: string, method: string, operation: Operation): void {
  const traits = traitsOf(path, method, operation);
  const responses = { ...operation.responses };
  if (operation["x-implementation-status"] === "implemented")
    for (const [status, description] of Object.entries(sharedStatuses(traits)))
      responses[status] ??= { description, content: ERROR_CONTENT };
  operation.responses = Object.fromEntries(
    Object.entries(responses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, response]) => [
        status,
        {
          ...withExample(status, response),
          headers: { ...headerRefs(...sharedHeaders(traits, status)), ...response.headers },
        },
      ]),
  );
}

/**
 * The generated document with every operation's shared answers and headers added, and the
 * header components they refer to.
 */
export function withSharedAnswers<D extends object>(generated: D): D {
  const document = generated as Document;
  for (const [path, operations] of Object.entries(document.paths ?? {}))
    for (const [method, operation] of Object.entries(operations)) completeOperation(path, method, operation);
  document.components = { ...document.components, headers: RESPONSE_HEADERS };
  return generated;
}
