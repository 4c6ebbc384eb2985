/**
 * Every response header the API sends of its own, declared once as an OpenAPI component
 * (`#/components/headers/<name>`) that responses refer to. Framing (Content-Type,
 * Content-Length) and the CORS protocol's headers are not declared per operation (docs/http.md).
 */

const integer = (example: number) => ({ type: "integer" as const, minimum: 0, example });
const text = (example: string) => ({ type: "string" as const, example });

export const RESPONSE_HEADERS = {
  "API-Version": {
    description: "The URL major version that answered: `v1` on every /api/v1 answer, errors included.",
    required: true,
    schema: { type: "string" as const, enum: ["v1"], example: "v1" },
  },
  "X-Request-Id": {
    description:
      "The request's id: the client's own `X-Request-Id` when it sent a valid one, else a new UUID. The server's log line of the request carries it.",
    required: true,
    schema: text("3f2b7c1e-8a4d-4b6e-9c1f-2d7e5a9b0c13"),
  },
  "RateLimit-Limit": {
    description:
      "Requests allowed in the current fixed UTC-minute window: the consumer's per-minute limit (keyed), the per-source or platform limit (anonymous, on a 429 only) or the account's (submissions).",
    required: false,
    schema: integer(60),
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current minute window.",
    required: false,
    schema: integer(59),
  },
  "RateLimit-Reset": {
    description: "Seconds until the minute window resets.",
    required: false,
    schema: integer(42),
  },
  "X-Quota-Limit": {
    description: "The consumer's daily quota (keyed requests only).",
    required: false,
    schema: integer(10000),
  },
  "X-Quota-Remaining": {
    description: "Requests left in the consumer's quota for this UTC day.",
    required: false,
    schema: integer(9958),
  },
  "X-Quota-Reset": {
    description: "Seconds until the daily quota resets at the next UTC midnight.",
    required: false,
    schema: integer(38512),
  },
  "Retry-After": {
    description:
      "Seconds to wait before retrying: on a 429 until the refusing window or quota resets; on a 503 a short wait while what is unavailable is probed again.",
    required: true,
    schema: integer(18),
  },
  Deprecation: {
    description:
      "`?1` (RFC 9745): this operation is deprecated. No retirement date is set, so no Sunset header is sent.",
    required: true,
    schema: { type: "string" as const, enum: ["?1"], example: "?1" },
  },
  Link: {
    description:
      'The canonical successor of a deprecated alias, query string kept: `</api/v1/fixtures?limit=5>; rel="successor-version"`.',
    required: true,
    schema: text('</api/v1/fixtures?limit=5>; rel="successor-version"'),
  },
  "WWW-Authenticate": {
    description:
      'The challenge of a 401 (RFC 9110 §11.6.1): `Bearer` for the bearer-token operations (a deletion with a stale sign-in: `Bearer error="insufficient_user_authentication", …, max_age=900`, RFC 9470), `ApiKey` for the keyed ones.',
    required: true,
    schema: text("Bearer"),
  },
  "Cache-Control": {
    description:
      "`no-store` on every answer to a bearer token (it is the caller's alone); `private, no-cache` on a keyed read (it carries the consumer's quota; revalidate its ETag); `no-cache` on a public read with an ETag.",
    required: false,
    schema: text("no-store"),
  },
  ETag: {
    description:
      'Version stamp: `"<fixture version>-<digest of the body>"`. Send it back in If-None-Match to get 304 while nothing changed.',
    required: true,
    schema: text('"412-3q2-7wEJ6LvE4M9r"'),
  },
} as const;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

/** A response's `headers`: references to the named components. */
export const headerRefs = (...names: ResponseHeaderName[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
