import type { z } from "@hono/zod-openapi";
import { ApiError, type ErrorDetail } from "./errors.js";

type Target = "json" | "query" | "param" | "header" | "form" | "cookie";

/**
 * Turns a zod failure into VALIDATION_FAILED with one detail per problem and dotted field
 * paths. Bad bodies are 422 (the JSON parsed but means nothing valid); bad query, path or
 * headers are 400.
 */
export function validationFailed(target: Target, error: z.ZodError): ApiError {
  const details = error.issues.flatMap((issue): ErrorDetail[] => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      const message = target === "query" ? "Unknown query parameter" : "Unexpected field";
      return issue.keys.map((key) => detail(target, [...path, key], message));
    }
    return [detail(target, path, issue.message)];
  });
  const where = target === "json" ? "request body" : target === "param" ? "path" : target;
  return new ApiError(
    "VALIDATION_FAILED",
    `The ${where} is invalid`,
    details,
    target === "json" || target === "form" ? 422 : 400,
  );
}

function detail(target: Target, path: string[], message: string): ErrorDetail {
  const inEvent = target === "json" && path[0] === "events" && /^\d+$/.test(path[1] ?? "");
  return {
    code: "INVALID_FIELD",
    message,
    field: path.join(".") || target,
    ...(inEvent ? { eventIndex: Number(path[1]) } : {}),
  };
}
