import type { z } from "@hono/zod-openapi";
import { ApiError } from "../http/errors.js";
import { integerParam } from "../http/pagination.js";
import { validationFailed } from "../http/validation.js";

/*
 * Consumer and key ids in paths: positive integers, and (unlike every other path parameter,
 * which is 400) a non-numeric or zero one is 422 VALIDATION_FAILED, as the specification's
 * error table says. Shared by every route under /admin/api-consumers/{consumerId}.
 */

/** Nine digits at most (what `integerParam` reads), so every id fits a Postgres integer. */
const MAX_ID = 999_999_999;

/** A consumer or key id path parameter: `1`, `42`; never `0`, `-1`, `abc` or `1.5`. */
export const numericPathId = (name: string, description: string) =>
  integerParam(1, MAX_ID, description, 1).openapi({ param: { name, in: "path" } });

type Validation = { target: string } & ({ success: true } | { success: false; error: z.ZodError });

/**
 * The validation hook of those routes: the router's usual VALIDATION_FAILED envelope, one
 * detail per problem with `field` the parameter's name, but 422 for the path.
 */
export function numericIdsHook(result: Validation): undefined {
  if (result.success) return undefined;
  const failure = validationFailed(result.target as Parameters<typeof validationFailed>[0], result.error);
  throw result.target === "param" ? new ApiError(failure.code, failure.message, failure.details, 422) : failure;
}
