import { z } from "@hono/zod-openapi";
import { ApiError } from "../http/errors.js";
import { refuseUnstorable, validationFailed } from "../http/validation.js";

/*
 * Consumer and key ids in paths: positive integers, and (unlike every other path parameter,
 * which is 400) a non-numeric or zero one is 422 VALIDATION_FAILED, as the specification's
 * error table says. Shared by every route under /admin/api-consumers/{consumerId}.
 */

/**
 * A consumer or key id path parameter: `1`, `42`, `12345678901`; never `0`, `-1`, `abc`,
 * `1.5` or `1e3`. Any whole number JavaScript holds exactly is an id, existing or not: one
 * past what the read models store is simply not found.
 */
export const numericPathId = (name: string, description: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, "Expected a positive whole number")
    .transform(Number)
    .pipe(z.number().int().min(1))
    .openapi({ param: { name, in: "path" }, type: "integer", minimum: 1, description, example: 1 });

type Validation<T> = { target: string } & ({ success: true; data: T } | { success: false; error: z.ZodError });

/**
 * The validation hook of those routes: the router's usual checks and VALIDATION_FAILED
 * envelope, one detail per problem with `field` the parameter's name, but 422 for the path.
 */
export function numericIdsHook<T>(result: Validation<T>): undefined {
  const target = result.target as Parameters<typeof validationFailed>[0];
  if (result.success) {
    refuseUnstorable(target, result.data);
    return undefined;
  }
  const failure = validationFailed(target, result.error);
  throw target === "param" ? new ApiError(failure.code, failure.message, failure.details, 422) : failure;
}
