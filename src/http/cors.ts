import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/**
 * CORS for the approved origins only. Browsers may read the limit, quota, retry, version and
 * deprecation headers, and send the credentials and validators the API takes; preflights are
 * answered here, before any limit counts them. Any other origin (or none) gets no CORS
 * header at all, only `Vary: Origin`, since the answer depends on it: its preflight is
 * routed like any request (405, the path having no OPTIONS).
 */
export function browserAccess(origins: readonly string[]): MiddlewareHandler {
  const approved = new Set(origins);
  const answer = corsFor(origins);
  return async (c, next) => {
    if (approved.has(c.req.header("Origin") ?? "")) return answer(c, next);
    await next();
    c.header("Vary", "Origin", { append: true });
  };
}

const corsFor = (origins: readonly string[]) =>
  cors({
    origin: [...origins],
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"],
    allowHeaders: ["Authorization", "Content-Type", "X-API-Key", "If-None-Match"],
    exposeHeaders: [
      "RateLimit-Limit",
      "RateLimit-Remaining",
      "RateLimit-Reset",
      "X-Quota-Limit",
      "X-Quota-Remaining",
      "X-Quota-Reset",
      "Retry-After",
      "API-Version",
      "Deprecation",
      "Link",
      "Location",
      "ETag",
      "Content-Disposition",
    ],
    maxAge: 600,
  });
