import type { NotFoundHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { Router } from "./api.js";
import { ApiError } from "./errors.js";

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The answer when no route takes a request: 405 METHOD_NOT_ALLOWED with `Allow` when the
 * path has routes for other methods (HEAD wherever GET is: Hono answers it with the GET
 * route), else 404, UNSUPPORTED_API_VERSION for another major version.
 */
export function unrouted(app: Router): NotFoundHandler {
  const methodsOf = allowedMethods(app);
  return (c) => {
    const allowed = methodsOf(c.req.path);
    if (allowed.length > 0 && !allowed.includes(c.req.method)) {
      const error = new ApiError(
        "METHOD_NOT_ALLOWED",
        `${c.req.method} is not allowed on ${c.req.path}; it allows ${allowed.join(", ")}`,
      );
      return c.json(error.toBody(), error.status, { Allow: allowed.join(", ") });
    }
    const version = /^\/api\/(v\d+)(?:\/|$)/.exec(c.req.path)?.[1];
    const error =
      version && version !== "v1"
        ? new ApiError("UNSUPPORTED_API_VERSION", `API version ${version} is not supported; use /api/v1`)
        : new ApiError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), error.status);
  };
}

/** The methods a path is routed for, from the app's routes, read on first use (once every route is in). */
function allowedMethods(app: Router): (path: string) => string[] {
  let routes: TrieRouter<string> | undefined;
  return (path) => {
    if (!routes) {
      routes = new TrieRouter<string>();
      for (const route of app.routes) if (route.method !== "ALL") routes.add("ALL", route.path, route.method);
    }
    const methods = new Set(routes.match("GET", path)[0].map(([method]) => method));
    if (methods.has("GET")) methods.add("HEAD");
    return METHOD_ORDER.filter((method) => methods.has(method));
  };
}
