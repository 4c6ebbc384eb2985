import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { ApiError, errorResponses } from "../http/errors.js";
import { READY_PATH } from "./health.js";
import { type Readiness, readiness } from "./queries/readiness.js";

const checkSchema = z.enum(["up", "down", "not used"]);

const readinessSchema = z
  .object({
    status: z.literal("ready"),
    checks: z.object({
      database: z.object({
        status: checkSchema,
        latencyMs: z.number().int().nullable().openapi({ description: "The last probe's round trip." }),
      }),
      redis: z.object({
        status: checkSchema.openapi({ description: "`not used` without REDIS_URL (in-process limits)." }),
      }),
      projectors: z
        .array(
          z.object({
            name: z.string(),
            caughtUp: z.boolean(),
            lagSeconds: z
              .number()
              .nullable()
              .openapi({ description: "Age of the oldest event not yet projected; null when caught up." }),
          }),
        )
        .openapi({ description: "Each read model's projector. Lag is reported, never a reason to be unready." }),
    }),
  })
  .openapi("Readiness");

const route = createRoute({
  method: "get",
  path: READY_PATH,
  tags: ["Health"],
  operationId: "getReadiness",
  summary: "Readiness: whether this instance can serve",
  description:
    "200 when the database answers and, with REDIS_URL, Redis too; 503 NOT_READY otherwise, one " +
    "detail per dependency that does not answer. Reports each projector's lag, which never makes " +
    "an instance unready: reads are served while read models catch up. For load balancers and " +
    "orchestrators; `GET /api/v1/health` is liveness.",
  security: [],
  ...implemented,
  responses: {
    200: {
      description: "Ready to serve",
      content: { "application/json": { schema: z.object({ data: readinessSchema }).openapi("ReadinessResponse") } },
    },
    ...errorResponses(500, 503),
  },
});

export const registerReadiness = (app: Router, deps: AppDependencies) =>
  app.openapi(route, async (c) => {
    const ready = await readiness(deps);
    const down = unready(ready);
    if (down.length > 0)
      throw new ApiError("NOT_READY", `Not ready: ${down.map((d) => d.field).join(" and ")} not answering`, down);
    return c.json({ data: { status: "ready" as const, checks: ready } }, 200);
  });

const unready = (ready: Readiness) =>
  (["database", "redis"] as const)
    .filter((dependency) => ready[dependency].status === "down")
    .map((dependency) => ({
      code: "DEPENDENCY_DOWN",
      message: ready[dependency].error ?? `${dependency} does not answer`,
      field: dependency,
    }));
