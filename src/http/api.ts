import { OpenAPIHono } from "@hono/zod-openapi";
import { refuseUnstorable, validationFailed } from "./validation.js";

/**
 * A router whose request validation failures become VALIDATION_FAILED in the error envelope,
 * and whose validated input never holds text the database cannot store.
 */
export const createRouter = () =>
  new OpenAPIHono({
    defaultHook: (result) => {
      const target = result.target as Parameters<typeof validationFailed>[0];
      if (!result.success) throw validationFailed(target, result.error);
      refuseUnstorable(target, result.data);
    },
  });

export type Router = ReturnType<typeof createRouter>;

/** Every operation says whether it is deployed (`implemented`) or agreed but not yet (`planned`). */
export const implemented = { "x-implementation-status": "implemented" } as const;
