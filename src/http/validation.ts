import type { z } from "@hono/zod-openapi";
import { bodyLocation, type Location, zodDetails } from "../commands/problems.js";
import { ApiError } from "./errors.js";
import { UNSTORABLE_MESSAGE, unstorablePaths } from "./storable-text.js";

type Target = "json" | "query" | "param" | "header" | "form" | "cookie";

/** Where a problem of `target` is reported: within its event for a body, by name otherwise. */
const locate =
  (target: Target) =>
  (path: string[]): Location =>
    target === "json" ? bodyLocation(path) : { field: path.join(".") || target };

/** Bad bodies are 422 (the JSON parsed but means nothing valid); bad query, path or headers are 400. */
const statusOf = (target: Target) => (target === "json" || target === "form" ? 422 : 400);

/** Query parameters a client may put an API key in: never read, and a URL is logged everywhere. */
const KEY_IN_QUERY = /^(api[_-]?key|x[_-]api[_-]key|key|access[_-]?token|token)$/i;
const KEY_IN_QUERY_MESSAGE =
  "Unknown query parameter: an API key goes in the X-API-Key header, never in a URL (URLs are logged)";

/** Turns a zod failure into VALIDATION_FAILED with one detail per problem and dotted field paths. */
export function validationFailed(target: Target, error: z.ZodError): ApiError {
  const details = zodDetails(
    error,
    locate(target),
    target === "query" ? "Unknown query parameter" : "Unexpected field",
  ).map((detail) =>
    target === "query" && detail.message === "Unknown query parameter" && KEY_IN_QUERY.test(detail.field)
      ? { ...detail, message: KEY_IN_QUERY_MESSAGE }
      : detail,
  );
  const where = target === "json" ? "request body" : target === "param" ? "path" : target;
  return new ApiError("VALIDATION_FAILED", `The ${where} is invalid`, details, statusOf(target));
}

/**
 * Refuses input that holds text the database cannot store, before anything is looked up
 * with it: a body or query as invalid (each place named, inside an event by `field`, e.g. a
 * CSV column), a path as naming nothing, since no resource can have such an id. In a body
 * these are reported alone: the rest is judged once they are mended.
 */
export function refuseUnstorable(
  target: Target,
  data: unknown,
  field: (path: string) => string = (path) => path,
): void {
  const paths = unstorablePaths(data);
  if (paths.length === 0) return;
  if (target === "param") throw new ApiError("NOT_FOUND", "No such resource");
  const details = paths.map(locate(target)).map((at) => ({
    code: "INVALID_FIELD",
    message: UNSTORABLE_MESSAGE,
    ...(at.eventIndex === undefined ? at : { ...at, field: field(at.field) }),
  }));
  throw new ApiError("VALIDATION_FAILED", "The request holds text that cannot be stored", details, statusOf(target));
}
