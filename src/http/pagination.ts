import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { parseJson } from "../bounded-json.js";
import { ApiError } from "./errors.js";
import { unstorablePaths } from "./storable-text.js";

/**
 * Cursor (keyset) pagination shared by every collection.
 *
 * A cursor is base64url of `{"s": <scope digest>, "k": [<sort key of the last item>]}`. The
 * scope digest covers the operation, its path parameters, its filters and its sort, so a
 * cursor reused with anything else changed is refused (400 VALIDATION_FAILED, field
 * `cursor`) instead of silently paging a different result. Pages continue strictly after
 * the key, in a total order that ends with the resource id: no OFFSET, no duplicates or
 * gaps when rows are added before the cursor.
 */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** The largest value of a PostgreSQL `integer` column: a cursor's key compared with one must fit it. */
export const INTEGER_MAX = 2_147_483_647;

/**
 * A whole-number query parameter. Digits only: an empty value, `1.5`, `1e2`, `-1` or `0x10`
 * is refused rather than coerced (`z.coerce.number()` would read "" as 0).
 */
export const integerParam = (minimum: number, maximum: number, description: string, example: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, "Expected a whole number")
    .transform(Number)
    .pipe(z.number().int().min(minimum).max(maximum))
    .openapi({ type: "integer", minimum, maximum, description, example });

export const limitParam = integerParam(
  1,
  MAX_LIMIT,
  `Page size, 1 to ${MAX_LIMIT}; ${DEFAULT_LIMIT} when absent.`,
  DEFAULT_LIMIT,
)
  .optional()
  .openapi({ default: DEFAULT_LIMIT });

export const cursorParam = z.string().min(1).max(1000).optional().openapi({
  description:
    "Opaque `nextCursor` of the previous page. Valid only with the same path, filters and sort it was issued for; change any of them and start again without it. (No example: a cursor is only ever one a page gave.)",
});

/**
 * `sort` accepting each whitelisted field ascending (`field`) or descending (`-field`). The
 * default is filled in, so an explicit default and an absent sort page alike.
 */
export const sortParam = <const F extends string>(fields: readonly [F, ...F[]], fallback: F) =>
  z
    .enum([...fields, ...fields.map((f) => `-${f}` as const)] as [F | `-${F}`, ...(F | `-${F}`)[]])
    // zod types an enum default through a mapped type the generic parameters do not reach.
    .default(fallback as never)
    .openapi({
      description: `Sort field, \`-\` first for descending: ${fields.map((f) => `\`${f}\``).join(", ")}. Default \`${fallback}\`. Ties break on the id, in the same direction.`,
      example: fallback,
    });

export type Direction = "asc" | "desc";
export const directionOf = (sort: string | undefined): Direction => (sort?.startsWith("-") ? "desc" : "asc");

export const paginationSchema = z
  .object({
    limit: z.number().int().min(1).max(MAX_LIMIT).openapi({ description: "The page size used.", example: 50 }),
    nextCursor: z.string().nullable().openapi({
      description: "Pass as `cursor` for the next page; null on the last page.",
      example: "eyJzIjoiYk1rN0lfOUYiLCJrIjpbIjIwMjQtMDQtMDEiLCIxNDI2MzEyIl19",
    }),
  })
  .openapi("Pagination");

export type Pagination = z.infer<typeof paginationSchema>;

/** What a cursor is bound to: the operation and every input that shapes its result. */
export type CursorScope = { operation: string; inputs: Record<string, unknown> };

const digest = ({ operation, inputs }: CursorScope) => {
  const canonical = Object.keys(inputs)
    .filter((k) => inputs[k] !== undefined)
    .sort()
    .map((k) => [k, inputs[k]]);
  return createHash("sha256")
    .update(JSON.stringify([operation, canonical]))
    .digest("base64url")
    .slice(0, 12);
};

const invalidCursor = (message: string) =>
  new ApiError("VALIDATION_FAILED", "The query is invalid", [{ code: "INVALID_FIELD", message, field: "cursor" }]);

export const encodeCursor = (scope: CursorScope, key: readonly unknown[]) =>
  Buffer.from(JSON.stringify({ s: digest(scope), k: key })).toString("base64url");

/** The sort key a cursor continues after, or undefined without a cursor; 400 when it does not belong here. */
export function decodeCursor<K>(cursor: string | undefined, scope: CursorScope, key: z.ZodType<K>): K | undefined {
  if (cursor === undefined) return undefined;
  let decoded: unknown;
  try {
    decoded = parseJson(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor("Not a cursor this API issued");
  }
  // A key the server could not have issued (text the database cannot hold, a value of
  // another type or range than its column's) would fail the query: it is the client's error.
  const parsed = z.object({ s: z.string(), k: key }).safeParse(decoded);
  if (!parsed.success || unstorablePaths(parsed.data.k).length > 0) throw invalidCursor("Not a cursor this API issued");
  if (parsed.data.s !== digest(scope)) {
    throw invalidCursor(
      "The cursor belongs to other filters, another sort or another resource; start again without it",
    );
  }
  return parsed.data.k as K;
}

/** A row of a keyset query: the resource, and its position in the sort order. */
export type Keyed<T, K> = { item: T; key: K };

/**
 * One page of a keyset query: fetches one row more than asked to know whether another page
 * follows, and issues the cursor after the last row returned.
 */
export async function keysetPage<T, K extends readonly unknown[]>(options: {
  scope: CursorScope;
  limit: number | undefined;
  cursor: string | undefined;
  key: z.ZodType<K>;
  fetch: (after: K | undefined, take: number) => Promise<Keyed<T, K>[]>;
}): Promise<{ data: T[]; pagination: Pagination }> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const after = decodeCursor(options.cursor, options.scope, options.key);
  const rows = await options.fetch(after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(options.scope, last.key) : null;
  return { data: page.map((r) => r.item), pagination: { limit, nextCursor } };
}

/** The response envelope of a collection of `item`. */
export const collectionSchema = <T extends z.ZodType>(item: T, name: string, description: string) =>
  z
    .object({
      data: z.array(item).openapi({ description }),
      pagination: paginationSchema,
    })
    .openapi(name);
