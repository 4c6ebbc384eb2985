import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { errorResponses } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { readableHistory } from "../read-api/queries/delivery-history.js";
import { ACCESS_NOTE, eventIdParam } from "./corrections.js";
import { historySchema } from "./schemas.js";

/**
 * The audit history of a delivery, read from the `delivery_history` read model: who may
 * correct a delivery may read how it came to be.
 */

const historyRoute = createRoute({
  method: "get",
  path: "/api/v1/submissions/events/{eventId}/history",
  tags: ["Submissions"],
  operationId: "getEventHistory",
  summary: "Audit history of a delivery",
  description: `How the delivery was recorded (by whom, when, and its position in the original submission) and every correction since, oldest first: the previous and replacement delivery ids (the ids of the events holding each revision), revision numbers, requester, time, reason, both complete states, the batch item (null for a direct correction), the review (null for a direct correction) and the scopes it refreshed. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ eventId: eventIdParam }) },
  responses: {
    200: {
      description: "The audit history",
      content: { "application/json": { schema: z.object({ data: historySchema }) } },
    },
    ...errorResponses(404),
  },
});

export function registerDeliveryHistory(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use("/api/v1/submissions/events/:eventId/history", requireCaller(deps));

  app.openapi(historyRoute, async (c) => {
    const eventId = c.req.valid("param").eventId.toLowerCase();
    return c.json({ data: await readableHistory(sql(), callerOf(c).account, eventId) }, 200);
  });
}
