import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { bearerSecurity, callerOf, registerBearerScheme, requireCaller } from "../http/authentication.js";
import { errorResponse, errorResponses } from "../http/errors.js";
import { cursorParam, limitParam } from "../http/pagination.js";
import { EXPORT_EVENT_LIMIT } from "../read-api/fixture-event-exports.js";
import { statisticParams } from "../read-api/fixture-statistic-exports.js";
import { readModels } from "../read-api/params.js";
import { aggregateParams } from "../read-api/participant-statistics.js";
import { AGGREGATE_PARTS, readableAggregateProvenance } from "../read-api/queries/aggregate-provenance.js";
import { readableStatisticProvenance } from "../read-api/queries/statistic-provenance.js";
import { ACCESS_NOTE } from "../submission-api/corrections.js";
import { aggregateProvenanceSchema, statisticProvenanceSchema } from "./schemas.js";

/** Derived-statistic provenance of a fixture statistic, read from the statistics and `delivery_history` read models. */

const statisticProvenanceRoute = createRoute({
  method: "get",
  path: "/api/v1/provenance/fixtures/{fixtureId}/statistics/{statisticId}",
  tags: ["Provenance"],
  operationId: "getStatisticProvenance",
  summary: "The deliveries and revisions a fixture statistic is computed from, and their sources",
  description: `The statistic's contributing deliveries (the same trace as \`…/statistics/{statisticId}/events/export.json\`), in occurrence order and paginated, each with the revision the statistic is computed from and every revision it went through: who made it, when, why and its source (a Cricsheet file and revision, a direct submission and position, or a direct correction), with a link to its event provenance for the complete states. The answer carries the fixture version it is read at; a page read while the fixture changed, or a cursor issued at another version, answers 409 TRACE_CHANGED: start again. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: statisticParams,
    query: z.object({ limit: limitParam, cursor: cursorParam }),
  },
  responses: {
    200: {
      description: "One page of the statistic's provenance",
      content: { "application/json": { schema: statisticProvenanceSchema } },
    },
    ...errorResponses(400, 404),
    ...errorResponse(
      409,
      "TRACE_CHANGED: the fixture changed while the page was read, or since the cursor was issued.",
    ),
    ...errorResponse(422, `EXPORT_TOO_LARGE: more than ${EXPORT_EVENT_LIMIT} contributing events.`),
  },
});

const aggregateProvenanceRoute = createRoute({
  method: "get",
  path: "/api/v1/provenance/participants/{participantId}/statistics/{statisticId}",
  tags: ["Provenance"],
  operationId: "getAggregateProvenance",
  summary: "The deliveries and revisions a participant aggregate (a leaderboard row) is computed from",
  description: `The deliveries one part of a participant aggregate (\`career\`, \`season-<seasonId>\`, \`competition-<competitionId>\`) is computed from, and so a leaderboard row of that scope, whose metric is a batting or bowling figure: \`batting\`, the deliveries they faced or were out on; \`bowling\`, those they bowled; \`fielding\`, those they took part in as a fielder. Super overs never count. Fixtures by date, each in occurrence order, paginated; each delivery with its fixture and the fixture's version, the revision the figures are computed from and every revision with who made it, when, why and its source (a Cricsheet file, a direct submission, a batch item and its approval, a correction), and a link to its event provenance. A page read while the deliveries changed answers 409 TRACE_CHANGED (repeat it); a cursor holds to the versions of every fixture in the trace (\`traceVersion\`) and is refused the same way once one changed. An administrator, or a submitter whose scope holds the season's or the competition's competition; a career only an administrator. ${ACCESS_NOTE}`,
  ...implemented,
  security: bearerSecurity,
  request: {
    params: aggregateParams,
    query: z.object({
      part: z.enum(AGGREGATE_PARTS).openapi({ description: "Which figures to trace.", example: "batting" }),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: {
      description: "One page of the aggregate's provenance",
      content: { "application/json": { schema: aggregateProvenanceSchema } },
    },
    ...errorResponses(400, 404),
    ...errorResponse(
      409,
      "TRACE_CHANGED: the deliveries changed while the page was read, or a fixture of the trace since the cursor was issued.",
    ),
    ...errorResponse(422, `EXPORT_TOO_LARGE: more than ${EXPORT_EVENT_LIMIT} contributing deliveries.`),
  },
});

export function registerStatisticProvenance(app: Router, deps: AppDependencies) {
  registerBearerScheme(app);
  const sql = readModels(deps);
  const traceLimit = deps.limits?.exportEvents ?? EXPORT_EVENT_LIMIT;
  app.use("/api/v1/provenance/fixtures/:fixtureId/statistics/:statisticId", requireCaller(deps));
  app.use("/api/v1/provenance/participants/:participantId/statistics/:statisticId", requireCaller(deps));

  app.openapi(statisticProvenanceRoute, async (c) => {
    const request = { ...c.req.valid("param"), ...c.req.valid("query") };
    return c.json(await readableStatisticProvenance(sql(), callerOf(c).account, request, traceLimit), 200);
  });

  app.openapi(aggregateProvenanceRoute, async (c) => {
    const request = { ...c.req.valid("param"), ...c.req.valid("query") };
    return c.json(await readableAggregateProvenance(sql(), callerOf(c).account, request, traceLimit), 200);
  });
}
