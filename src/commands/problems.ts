import { z } from "@hono/zod-openapi";
import type { Problem } from "./errors.js";

/** What a missing field is told, whatever type it should have had. */
export const REQUIRED = "Required";

// Set once for every parse, a route's validator and a command's checks alike: zod would
// otherwise tell a missing field which type it lacks ("expected string, received undefined").
z.config({
  customError: (issue) => (issue.code === "invalid_type" && issue.input === undefined ? REQUIRED : undefined),
});

/*
 * A zod failure as Problems: the same detail whoever checked the input, a route's
 * validator or a submission's checks, so both answer alike.
 */

export type Location = Pick<Problem, "field" | "eventIndex">;

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
): Problem[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys")
      return issue.keys.map((key) => ({ code: "INVALID_FIELD", message: unexpected, ...locate([...path, key]) }));
    return [{ code: "INVALID_FIELD", message: issue.message, ...locate(path) }];
  });
}
