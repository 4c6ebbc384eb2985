import { createRoute, z } from "@hono/zod-openapi";
import { correct } from "../commands/submissions/handlers.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import {
  application,
  bearerSecurity,
  callerOf,
  commandContext,
  registerBearerScheme,
  requireCaller,
  settled,
} from "../http/authentication.js";
import { errorResponse, errorResponses } from "../http/errors.js";
import { jsonBody } from "../http/json-body.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { pathId, readModels } from "../read-api/params.js";
import { correctionRequestSchema } from "../submissions/schema.js";
import { correctionResultSchema } from "./schemas.js";
import { FIXTURE_READ_MODELS } from "./submissions.js";

/**
 * Corrections of accepted deliveries: an admin anywhere, a submitter within their
 * competitions. A correction is a new immutable revision (its history: ./history.ts).
 */

export const eventIdParam = pathId(
  "eventId",
  "The delivery's event id (the submitter's UUID, kept by every revision).",
  SAMPLE.eventId,
);
export const ACCESS_NOTE =
  "Admins may act on any fixture; submitters only on fixtures of their granted competitions (403 otherwise, as for viewers).";

const correctRoute = createRoute({
  method: "put",
  path: "/api/v1/submissions/events/{eventId}",
  tags: ["Submissions"],
  operationId: "correctEvent",
  summary: "Correct an accepted delivery",
  description: `Replaces the live state of a delivery with a new immutable revision (revision + 1) and answers with the statistics scopes the change touches: the fixture, and the season, competition and career aggregates of everyone in the old or new state (not for super overs, which never count in player aggregates). The sequence is inherited. A replacement equal to the live state appends nothing and answers \`changed: false\` with no scopes to refresh, so repeating a PUT is safe. The fixture's version advances, so cached statistics of the old version are never served again. Problems are reported as for submissions (422, fields under \`event.\`); a ball or inherited sequence another live delivery holds, or a ball that would cross a neighbour's order, is a conflict: 409 EVENT_CONFLICT when it is the only problem, else among the 422's details. The state the history shows may be sent back as it is: its eventId and sequenceNumber are accepted when they are the delivery's own. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: z.object({ eventId: eventIdParam }),
    body: {
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CorrectionRequest" } } },
    },
  },
  responses: {
    200: {
      description: "The live revision and the scopes to refresh",
      content: { "application/json": { schema: z.object({ data: correctionResultSchema }) } },
    },
    ...errorResponses(404),
    ...errorResponse(
      409,
      "EVENT_CONFLICT: the new ball (or inherited sequence) is held by another live delivery, or crosses a neighbour's order; nothing was stored.",
    ),
  },
});

export function registerCorrections(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  app.openAPIRegistry.register("CorrectionRequest", correctionRequestSchema);
  const sql = readModels(deps);
  app.use("/api/v1/submissions/events/:eventId", requireCaller(deps));

  app.openapi(correctRoute, async (c) => {
    const services = application(deps);
    const { account } = callerOf(c);
    const eventId = (c.req.param("eventId") as string).toLowerCase();
    const outcome = await correct(
      { store: services.store, sql: sql() },
      { eventId, readBody: () => jsonBody(c), corrector: account },
      { ...commandContext(c), actor: account.accountId },
    );
    await settled(services, outcome, FIXTURE_READ_MODELS);
    return c.json({ data: outcome.correction }, 200);
  });
}
