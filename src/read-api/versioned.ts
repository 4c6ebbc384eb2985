import { z } from "@hono/zod-openapi";

/** OpenAPI pieces of fixture-scoped responses, which carry the fixture's version as an ETag. */
export const etagHeader = {
  ETag: {
    description:
      'Version stamp: `"<fixture version>-<digest of the body>"`. Send it back in If-None-Match to get 304 while nothing changed.',
    schema: { type: "string" as const, example: '"412-3q2-7wEJ6LvE4M9r"' },
  },
};

/** Documents If-None-Match; handlers read it from the request (header names are case-insensitive). */
export const ifNoneMatchHeader = z.object({
  "If-None-Match": z.string().optional().openapi({
    description: "ETag(s) of a representation the client holds; 304 Not Modified while it is current.",
    example: '"412-3q2-7wEJ6LvE4M9r"',
  }),
});

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
