import type { RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { API_KEY_HEADER, canonicalReadAccess, requireConsumer } from "./access.js";
import type { Router } from "./api.js";
import type { AppDependencies } from "./app.js";
import { keptAnswers } from "./kept-answers.js";

/**
 * The canonical paths the deprecated keyed aliases mirror: `/api/v1/consumer<tail>` for each
 * `/api/v1<tail>` here (spec, Deprecated keyed aliases). No retirement date is approved, so
 * they carry Deprecation and a successor Link but no Sunset.
 */
const ALIASED = new Set(
  [
    "/competitions",
    "/fixtures",
    "/fixtures/{fixtureId}",
    "/fixtures/{fixtureId}/events",
    "/fixtures/{fixtureId}/events/{eventId}",
    "/fixtures/{fixtureId}/events/export.json",
    "/fixtures/{fixtureId}/events/export.csv",
    "/fixtures/{fixtureId}/statistics",
    "/fixtures/{fixtureId}/statistics/{statisticId}",
    "/fixtures/{fixtureId}/statistics/{statisticId}/events/export.json",
    "/fixtures/{fixtureId}/statistics/{statisticId}/events/export.csv",
    "/participants/{participantId}/statistics",
    "/participants/{participantId}/statistics/{statisticId}",
  ].map((tail) => `/api/v1${tail}`),
);

const CANONICAL_PREFIX = "/api/v1/";
export const ALIAS_PREFIX = "/api/v1/consumer/";
export const aliasOf = (canonicalPath: string) => canonicalPath.replace(CANONICAL_PREFIX, ALIAS_PREFIX);

/** The OpenAPI security of a canonical read: anonymous, or a consumer's key. */
const optionalKey = [{}, { apiKey: [] }];
export const apiKeySecurity = [{ apiKey: [] }];

const registeredSchemes = new WeakSet<Router>();

/** Declares the API-key scheme the keyed operations refer to. */
export function registerApiKeyScheme(app: Router) {
  if (registeredSchemes.has(app)) return;
  registeredSchemes.add(app);
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "apiKey",
    in: "header",
    name: API_KEY_HEADER,
    description: "A consumer's API key, shown once when an administrator issues or rotates it. Never send it in a URL.",
  });
}

/** `Deprecation: ?1` and the canonical successor, query string kept, on every alias answer. */
const deprecated: MiddlewareHandler = async (c, next) => {
  await next();
  const url = new URL(c.req.url);
  const successor = `${url.pathname.replace(ALIAS_PREFIX, CANONICAL_PREFIX)}${url.search}`;
  c.res.headers.set("Deprecation", "?1");
  c.res.headers.set("Link", `<${successor}>; rel="successor-version"`);
};

/** The handler `app.openapi(route, handler)` takes for `route`. */
type Handler<R extends RouteConfig> = Parameters<typeof openapiOf<R>>[1];
declare const openapiOf: Router["openapi"];

/**
 * Registers a cricket-resource read: the canonical route behind `canonicalReadAccess`
 * (anonymous or keyed) and, where the specification lists one, its deprecated keyed alias
 * with the same handler, so filters, pagination and bodies cannot drift apart. `readFrom`
 * names the projectors whose read models its answers come from: 200 answers are kept until
 * one of those changes (`keptAnswers`).
 */
export function openapiCanonicalRead<R extends RouteConfig>(
  app: Router,
  deps: AppDependencies,
  route: R,
  readFrom: readonly string[],
  handler: Handler<R>,
) {
  registerApiKeyScheme(app);
  const kept = keptAnswers(deps, readFrom);
  app.openapi({ ...route, middleware: [canonicalReadAccess(deps), kept], security: optionalKey }, handler as never);
  if (!ALIASED.has(route.path)) return;
  app.openapi(
    {
      ...route,
      path: aliasOf(route.path),
      operationId: `${route.operationId}ViaConsumerAlias`,
      tags: ["Deprecated aliases"],
      summary: `Deprecated keyed alias of ${route.path}`,
      description: `Deprecated: use ${route.path}, which it mirrors (same filters, pagination and bodies). A valid X-API-Key is required (a missing key is 401 too). Every answer carries \`Deprecation: ?1\` and \`Link: <${route.path}…>; rel="successor-version"\` with the query string kept; no retirement date is set, so no Sunset.`,
      deprecated: true,
      middleware: [deprecated, requireConsumer(deps), kept],
      security: apiKeySecurity,
    },
    handler as never,
  );
}
