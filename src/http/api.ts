import { OpenAPIHono } from "@hono/zod-openapi";
import { validationFailed } from "./validation.js";

/** A router whose request validation failures become VALIDATION_FAILED in the error envelope. */
export const createRouter = () =>
  new OpenAPIHono({
    defaultHook: (result) => {
      if (!result.success)
        throw validationFailed(result.target as Parameters<typeof validationFailed>[0], result.error);
    },
  });

export type Router = ReturnType<typeof createRouter>;

/** Every operation says whether it is deployed (`implemented`) or agreed but not yet (`planned`). */
export const implemented = { "x-implementation-status": "implemented" } as const;
