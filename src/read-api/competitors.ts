import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { errorResponses, notFound } from "../http/errors.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { nameFilter, oneResource, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findCompetitor, listCompetitors } from "./queries/reference.js";
import { competitorSchema } from "./schemas/reference.js";

const nameKey = z.tuple([z.string(), z.string()]);

const listQuery = z.object({
  name: nameFilter("competitors", "mumbai"),
  sort: sortParam(["name"], "name"),
  limit: limitParam,
  cursor: cursorParam,
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/competitors",
  tags: ["Public reads"],
  operationId: "listCompetitors",
  summary: "List competitors",
  description: `Competitors (teams) by name (case-insensitive), then id. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of competitors",
      content: {
        "application/json": { schema: collectionSchema(competitorSchema, "CompetitorPage", "Competitors.") },
      },
    },
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/competitors/{competitorId}",
  tags: ["Public reads"],
  operationId: "getCompetitor",
  summary: "One competitor",
  description: oneResource("competitor"),
  ...implemented,
  request: { params: z.object({ competitorId: pathId("competitorId", "Competitor (team) id.", SAMPLE.competitorId) }) },
  responses: {
    200: {
      description: "The competitor",
      content: { "application/json": { schema: z.object({ data: competitorSchema }).openapi("CompetitorResponse") } },
    },
    ...errorResponses(404),
  },
});

export function registerCompetitors(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.reference, async (c) => {
    const { limit, cursor, ...inputs } = c.req.valid("query");
    const page = await keysetPage({
      scope: { operation: "listCompetitors", inputs },
      limit,
      cursor,
      key: nameKey,
      fetch: (after, take) =>
        listCompetitors(sql(), { name: inputs.name, direction: directionOf(inputs.sort), after, take }),
    });
    return c.json(page, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.reference, async (c) => {
    const competitor = await findCompetitor(sql(), c.req.valid("param").competitorId);
    if (!competitor) throw notFound("competitor");
    return c.json({ data: competitor }, 200);
  });
}
