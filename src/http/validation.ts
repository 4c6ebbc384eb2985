import type { z } from "@hono/zod-openapi";
import { ApiError, type ErrorDetail } from "./errors.js";
import { UNSTORABLE_MESSAGE, unstorablePaths } from "./storable-text.js";

type Target = "json" | "query" | "param" | "header" | "form" | "cookie";

/**
 * Turns a zod failure into VALIDATION_FAILED with one detail per problem and dotted field
 * paths. Bad bodies are 422 (the JSON parsed but means nothing valid); bad query, path or
 * headers are 400.
 */
export function validationFailed(target: Target, error: z.ZodError): ApiError {
  const details = zodDetails(
    error,
    (path) => (target === "json" ? bodyLocation(path) : { field: path.join(".") || target }),
    target === "query" ? "Unknown query parameter" : "Unexpected field",
  );
  const where = target === "json" ? "request body" : target === "param" ? "path" : target;
  return new ApiError(
    "VALIDATION_FAILED",
    `The ${where} is invalid`,
    details,
    target === "json" || target === "form" ? 422 : 400,
  );
}

/**
 * Refuses input that passed its schema but holds text the database cannot store: a body or
 * query as invalid, and a path as naming nothing, since no resource can have such an id.
 */
export function refuseUnstorable(target: Target, data: unknown): void {
  const paths = unstorablePaths(data);
  if (paths.length === 0) return;
  if (target === "param") throw new ApiError("NOT_FOUND", "No such resource");
  throw unstorableInput(
    paths.map((path) => (target === "json" ? bodyLocation(path) : { field: path.join(".") || target })),
    target === "json" || target === "form" ? 422 : 400,
  );
}

/** VALIDATION_FAILED naming each place that holds text the database cannot store. */
export const unstorableInput = (locations: Location[], status: 400 | 422 = 422) =>
  new ApiError(
    "VALIDATION_FAILED",
    "The request holds text that cannot be stored",
    locations.map((location) => ({ code: "INVALID_FIELD", message: UNSTORABLE_MESSAGE, ...location })),
    status,
  );

export type Location = Pick<ErrorDetail, "field" | "eventIndex">;

/** Inside `events.N` a field is named within its event, which `eventIndex` names (as the specification's details do). */
export function bodyLocation(path: string[]): Location {
  if (path[0] === "events" && path.length > 2 && /^\d+$/.test(path[1] ?? ""))
    return { field: path.slice(2).join("."), eventIndex: Number(path[1]) };
  return { field: path.join(".") || "body" };
}

/** INVALID_FIELD for every zod issue (each unexpected key its own), placed by `locate`. */
export function zodDetails(
  error: z.ZodError,
  locate: (path: string[]) => Location,
  unexpected = "Unexpected field",
): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({ code: "INVALID_FIELD", message: unexpected, ...locate([...path, key]) }));
    return [{ code: "INVALID_FIELD", message: issue.message, ...locate(path) }];
  });
}
