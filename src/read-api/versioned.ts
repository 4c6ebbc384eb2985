import { z } from "@hono/zod-openapi";
import { headerRefs } from "../http/response-headers.js";

/** OpenAPI pieces of fixture-scoped responses, which carry the fixture's version as an ETag. */
export const etagHeader = {
  ...headerRefs("ETag"),
  "Cache-Control": {
    description:
      "`no-cache`: a cache may keep the answer but must revalidate it (If-None-Match) before each use; `private, no-cache` on a keyed read, which carries its consumer's quota; `no-store` on an answer to a bearer token.",
    required: true,
    schema: { type: "string" as const, enum: ["no-cache", "private, no-cache", "no-store"], example: "no-cache" },
  },
};

/**
 * Documents If-None-Match as a plain OpenAPI parameter, not a validated request part:
 * validating headers makes the Node adapter build a full web Request (every header copied),
 * which cost a cached read about a tenth of its throughput. `versionedJson` and `taggedFile`
 * read the header themselves.
 */
export const ifNoneMatchParameter = {
  in: "header" as const,
  name: "If-None-Match",
  required: false,
  description: "ETag(s) of a representation the client holds; 304 Not Modified while it is current.",
  schema: { type: "string" as const, example: '"412-3q2-7wEJ6LvE4M9r"' },
};

export const notModifiedResponse = {
  304: {
    description: "Not modified: the If-None-Match ETag is current. No body.",
    headers: etagHeader,
  },
};

export const fixtureVersionField = z.number().int().min(0).openapi({
  description: "The fixture's current version (its ledger revision); also the start of the ETag.",
  example: 412,
});

/** The `X-Cache` header of an answer read through the versioned cache, keyed as `keyedBy` says. */
export const cacheOutcomeHeader = (keyedBy: string) => ({
  "X-Cache": {
    description: `\`HIT\` when served from the versioned cache (${keyedBy}, 60 seconds), \`MISS\` when computed, \`BYPASS\` while the cache is unavailable.`,
    schema: { type: "string" as const, enum: ["HIT", "MISS", "BYPASS"], example: "HIT" },
  },
});
