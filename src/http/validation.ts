import type { z } from "@hono/zod-openapi";
import { ApiError, type ErrorDetail } from "./errors.js";

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
