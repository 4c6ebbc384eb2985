import { z } from "@hono/zod-openapi";
import type { Sql } from "../db/database.js";
import type { AppDependencies } from "../http/app.js";

/** Parameters and helpers every public read shares. */

/** The read-model database (its read pool when the app has one), or a plain error (500) in an app built only for its OpenAPI document. */
export const readModels =
  (deps: AppDependencies): (() => Sql) =>
  () => {
    const sql = deps.reads ?? deps.sql;
    if (!sql) throw new Error("this app was created without a database");
    return sql;
  };

/**
 * `compute()`'s value, memoised under `key` until the read models of `projectors` (any, when
 * not given) change, when the app has a watch.
 */
export const memoised =
  (deps: AppDependencies) =>
  <T>(key: string, compute: () => Promise<T>, projectors?: readonly string[]): Promise<T> =>
    deps.watch ? deps.watch.value(key, compute, projectors) : compute();

/** A path parameter holding an opaque id. Unknown ids answer 404, never 400. */
export const pathId = (name: string, description: string, example: string) =>
  z.string().openapi({ param: { name, in: "path" }, description, example });

/** The words of a name, as src/names/search-text.ts matches them. */
export const nameFilter = (what: string, example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      description: `Only ${what} known by a name each word of this text starts a word of, in any order, case and accents aside ("super kings", "kings chennai").${what === "participants" ? ' A word may also stand for an initial when another word matches in full: "virat kohli" and "V Kohli" both find V Kohli.' : ""}`,
      example,
    });

/** An id filter; without an example where the reference's other examples exclude it (Try it out sends every one). */
export const idFilter = (description: string, example?: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description, ...(example === undefined ? {} : { example }) });

export const UNKNOWN_PARAMETERS =
  "Unknown query parameters are refused with 400 VALIDATION_FAILED naming them, so a misspelt filter never silently widens a result.";

/** The description of a read of one reference resource by its id. */
export const oneResource = (what: string) =>
  `The ${what} with this id, with the fields its list gives. An id no ${what} has is 404 NOT_FOUND.`;

/**
 * The projectors whose read models each kind of public answer is read from: the answer is
 * kept until one of them changes (src/http/kept-answers.ts).
 */
export const READ_FROM = {
  reference: ["reference_data"],
  fixtures: ["reference_data", "fixtures", "deliveries", "stream_versions"],
  statistics: ["reference_data", "fixtures", "deliveries", "stream_versions", "statistics"],
  aggregates: ["reference_data", "statistics"],
} as const;
