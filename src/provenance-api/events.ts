import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { errorResponses } from "../http/errors.js";
import { readModels } from "../read-api/params.js";
import { readableEventProvenance } from "../read-api/queries/event-provenance.js";
import { ACCESS_NOTE, eventIdParam } from "../submission-api/corrections.js";
import { eventProvenanceSchema } from "./schemas.js";

/** Event-revision provenance, read from the `delivery_history` read model. */

const eventProvenanceRoute = createRoute({
  method: "get",
  path: "/api/v1/provenance/events/{eventId}",
  tags: ["Provenance"],
  operationId: "getEventProvenance",
  summary: "Every revision of a delivery and where each came from",
  description: `Every revision of the delivery, oldest first, each with the event holding it, who made it and when, why (null for revision 1), its source and the complete previous (null for revision 1) and resulting states. A source is a Cricsheet file (its source id, revision and data version: the import, or a re-issued file), a direct submission (its id, the delivery's position in it, the submitter and a link to the submission's provenance) or a direct correction (corrector and reason). ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: { params: z.object({ eventId: eventIdParam }) },
  responses: {
    200: {
      description: "The delivery's provenance",
      content: { "application/json": { schema: z.object({ data: eventProvenanceSchema }) } },
    },
    ...errorResponses(404),
  },
});

export function registerEventProvenance(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  app.use("/api/v1/provenance/events/:eventId", requireCaller(deps));

  app.openapi(eventProvenanceRoute, async (c) => {
    const eventId = c.req.valid("param").eventId.toLowerCase();
    return c.json({ data: await readableEventProvenance(sql(), callerOf(c).account, eventId) }, 200);
  });
}
