import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";

export const SERVICE_NAME = "cricket-analytics-service";

const HEALTH_PATH = "/api/v1/health";
export const READY_PATH = "/api/v1/ready";
/** Answered whatever the database's state: they are how operators learn it. */
export const ALWAYS_ANSWERED: ReadonlySet<string> = new Set([HEALTH_PATH, READY_PATH]);

const healthSchema = z
  .object({
    status: z.literal("ok").openapi({ description: "Always `ok` when the process can answer." }),
    service: z.string().openapi({ example: SERVICE_NAME }),
    timestamp: z.iso
      .datetime()
      .openapi({ description: "Server time, ISO 8601 UTC.", example: "2026-11-22T10:15:00.000Z" }),
  })
  .openapi("Health");

const route = createRoute({
  method: "get",
  path: HEALTH_PATH,
  tags: ["Health"],
  operationId: "getHealth",
  summary: "Liveness of the API process",
  description:
    "Liveness: answers without touching the database, so it measures the HTTP layer alone. " +
    "Whether the service can serve is `GET /api/v1/ready`.",
  ...implemented,
  security: [],
  responses: {
    200: { description: "The service is up", content: { "application/json": { schema: healthSchema } } },
  },
});

export const registerHealth = (app: Router) =>
  app.openapi(route, (c) =>
    c.json({ status: "ok" as const, service: SERVICE_NAME, timestamp: new Date().toISOString() }, 200),
  );
