import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { errorResponses, notFound } from "../http/errors.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { nameFilter, oneResource, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findCompetition, listCompetitions } from "./queries/reference.js";
import { competitionSchema } from "./schemas/reference.js";

const nameKey = z.tuple([z.string(), z.string()]);

const listQuery = z.object({
  name: nameFilter("competitions", "premier"),
  sort: sortParam(["name"], "name"),
  limit: limitParam,
  cursor: cursorParam,
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/competitions",
  tags: ["Public reads"],
  operationId: "listCompetitions",
  summary: "List competitions",
  description: `Competitions by name (case-insensitive), then id. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of competitions",
      content: {
        "application/json": { schema: collectionSchema(competitionSchema, "CompetitionPage", "Competitions.") },
      },
    },
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/competitions/{competitionId}",
  tags: ["Public reads"],
  operationId: "getCompetition",
  summary: "One competition",
  description: oneResource("competition"),
  ...implemented,
  request: { params: z.object({ competitionId: pathId("competitionId", "Competition id.", SAMPLE.competitionId) }) },
  responses: {
    200: {
      description: "The competition",
      content: { "application/json": { schema: z.object({ data: competitionSchema }).openapi("CompetitionResponse") } },
    },
    ...errorResponses(404),
  },
});

export function registerCompetitions(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.reference, async (c) => {
    const { limit, cursor, ...inputs } = c.req.valid("query");
    const page = await keysetPage({
      scope: { operation: "listCompetitions", inputs },
      limit,
      cursor,
      key: nameKey,
      fetch: (after, take) =>
        listCompetitions(sql(), { name: inputs.name, direction: directionOf(inputs.sort), after, take }),
    });
    return c.json(page, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.reference, async (c) => {
    const competition = await findCompetition(sql(), c.req.valid("param").competitionId);
    if (!competition) throw notFound("competition");
    return c.json({ data: competition }, 200);
  });
}
