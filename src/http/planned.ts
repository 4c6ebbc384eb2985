import { z } from "@hono/zod-openapi";
import type { Router } from "./api.js";
import { bearerSecurity } from "./authentication.js";
import { errorResponses } from "./errors.js";

type OpenAPIRegistry = Router["openAPIRegistry"];

type Method = "get" | "post" | "put" | "patch" | "delete";
/** The access class the specification gives it: public (no credential) or a bearer token. */
type Access = "public" | "bearer";
type Planned = [method: Method, path: string, tag: string, summary: string, access: Access];

/**
 * Operations of the interface specification that are agreed but not deployed yet. They are
 * in the published contract marked `x-implementation-status: planned` and answer 404 until
 * their issue lands; each moves to a real route definition then.
 */
const PLANNED: Planned[] = [
  [
    "get",
    "/api/v1/fixtures/{fixtureId}/weather",
    "Weather",
    "Weather on a fixture's start date at its venue",
    "public",
  ],
  ["get", "/api/v1/weather", "Weather", "Weather for a location and date", "public"],
];

const PLANNED_DESCRIPTION =
  "Agreed in the interface specification but not deployed yet: it answers 404 NOT_FOUND until it is implemented, when its parameters, bodies and answers are documented here.";

const operationId = (method: Method, path: string) =>
  method +
  path
    .replace("/api/v1", "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((part) => part.replace(/[{}]/g, ""))
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");

const registered = new WeakSet<OpenAPIRegistry>();

export function registerPlanned(registry: OpenAPIRegistry): void {
  if (registered.has(registry)) return;
  registered.add(registry);
  for (const [method, path, tag, summary, access] of PLANNED) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    registry.registerPath({
      method,
      path,
      tags: [tag],
      summary,
      description: PLANNED_DESCRIPTION,
      operationId: operationId(method, path),
      security: access === "bearer" ? bearerSecurity : [],
      "x-implementation-status": "planned",
      ...(tag === "Deprecated aliases" ? { deprecated: true } : {}),
      request: names.length ? { params: z.object(Object.fromEntries(names.map((n) => [n, z.string()]))) } : {},
      responses: errorResponses(404),
    });
  }
}
