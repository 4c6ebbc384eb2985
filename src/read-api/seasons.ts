import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { storableDate } from "../http/dates.js";
import { errorResponses, notFound } from "../http/errors.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { refuseMisplacedIds } from "./misplaced-ids.js";
import { idFilter, oneResource, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findSeason, listSeasons } from "./queries/reference.js";
import { seasonSchema } from "./schemas/reference.js";

const seasonKey = z.tuple([storableDate(), z.string()]);

const listQuery = z.object({
  competitionId: idFilter("Only seasons of this competition.", SAMPLE.competitionId),
  sort: sortParam(["startDate"], "startDate"),
  limit: limitParam,
  cursor: cursorParam,
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/seasons",
  tags: ["Public reads"],
  operationId: "listSeasons",
  summary: "List seasons",
  description: `Seasons by the start date of their first fixture (seasons without fixtures last), then id. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of seasons",
      content: { "application/json": { schema: collectionSchema(seasonSchema, "SeasonPage", "Seasons.") } },
    },
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/seasons/{seasonId}",
  tags: ["Public reads"],
  operationId: "getSeason",
  summary: "One season",
  description: oneResource("season"),
  ...implemented,
  request: { params: z.object({ seasonId: pathId("seasonId", "Season id.", SAMPLE.seasonId) }) },
  responses: {
    200: {
      description: "The season",
      content: { "application/json": { schema: z.object({ data: seasonSchema }).openapi("SeasonResponse") } },
    },
    ...errorResponses(404),
  },
});

export function registerSeasons(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.reference, async (c) => {
    const { limit, cursor, ...inputs } = c.req.valid("query");
    const page = await keysetPage({
      scope: { operation: "listSeasons", inputs },
      limit,
      cursor,
      key: seasonKey,
      fetch: (after, take) =>
        listSeasons(sql(), { competitionId: inputs.competitionId, direction: directionOf(inputs.sort), after, take }),
    });
    if (page.data.length === 0)
      await refuseMisplacedIds(sql(), { competitionId: { kind: "competition", id: inputs.competitionId } });
    return c.json(page, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.reference, async (c) => {
    const season = await findSeason(sql(), c.req.valid("param").seasonId);
    if (!season) throw notFound("season");
    return c.json({ data: season }, 200);
  });
}
