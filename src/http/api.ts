import { OpenAPIHono } from "@hono/zod-openapi";
import { withConventions } from "./operations.js";
import { refuseUnstorable, validationFailed } from "./validation.js";

/**
 * A router whose request validation failures become VALIDATION_FAILED in the error envelope,
 * whose validated input never holds text the database cannot store, and whose every
 * operation keeps the conventions of `withConventions` (strict queries, no unwanted bodies).
 */
export const createRouter = () => {
  const app = new OpenAPIHono({
    defaultHook: (result) => {
      const target = result.target as Parameters<typeof validationFailed>[0];
      if (!result.success) throw validationFailed(target, result.error);
      refuseUnstorable(target, result.data);
    },
  });
  const register = app.openapi;
  app.openapi = ((route, handler, hook) => register(withConventions(route), handler, hook)) as typeof register;
  return app;
};

export type Router = ReturnType<typeof createRouter>;

/** Every operation says it is deployed: the contract marks each `x-implementation-status: implemented`. */
export const implemented = { "x-implementation-status": "implemented" } as const;
