import { type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "./errors.js";

/*
 * What every operation does, whatever its route file declares, so that no route can forget
 * it: the router (`createRouter`) applies `withConventions` to each route it registers.
 */

const WRITES = new Set(["post", "put", "patch", "delete"]);

/**
 * The route as registered:
 * - its query is strict: a parameter it does not declare is 400 VALIDATION_FAILED naming it
 *   (an operation that declares none takes none), so a misspelt filter or a key sent as
 *   `?apiKey=` is refused instead of silently ignored;
 * - a write that declares no body refuses one (422): the client meant something by it.
 * The document lists these answers (and 415 wherever a body is declared) in
 * `shared-answers.ts`, with what every other middleware answers.
 */
export function withConventions<R extends RouteConfig>(route: R): R {
  const query = route.request?.query ?? z.object({});
  if (!(query instanceof z.ZodObject))
    throw new Error(`${route.method.toUpperCase()} ${route.path}: a query must be declared as an object`);
  const takesBody = route.request?.body !== undefined;
  const refusesBody = WRITES.has(route.method) && !takesBody;
  const middleware = [route.middleware ?? []].flat();
  return {
    ...route,
    request: { ...route.request, query: query.strict() },
    middleware: refusesBody ? [...middleware, refuseBody] : middleware,
  };
}

/**
 * 422 for content sent to an operation that takes none (key rotation, a rejection, a key
 * revocation). An empty body, with or without a Content-Type, is no content.
 */
const refuseBody: MiddlewareHandler = async (c, next) => {
  if (c.req.raw.body !== null && (await c.req.arrayBuffer()).byteLength > 0)
    throw new ApiError(
      "VALIDATION_FAILED",
      "This operation takes no request body",
      [{ code: "INVALID_FIELD", message: "Unexpected body: send none", field: "body" }],
      422,
    );
  await next();
};
