import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { storableDate } from "../http/dates.js";
import { errorResponses, notFound } from "../http/errors.js";
import { versionedJson } from "../http/etag.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { refuseMisplacedIds } from "./misplaced-ids.js";
import { idFilter, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findFixture, listFixtures } from "./queries/fixtures.js";
import { fixtureDetailSchema, fixtureSchema } from "./schemas/fixture.js";
import { etagHeader, ifNoneMatchParameter, notModifiedResponse } from "./versioned.js";

const fixtureKey = z.tuple([storableDate(), z.string()]);
const date = (description: string, example: string) => storableDate().optional().openapi({ description, example });

const listQuery = z
  .object({
    competitionId: idFilter("Only fixtures of this competition.", SAMPLE.competitionId),
    seasonId: idFilter("Only fixtures of this season.", SAMPLE.seasonId),
    season: z.string().trim().min(1).max(20).optional().openapi({
      description:
        "Only fixtures of seasons with this label or display name: the IPL's first season is labelled `2007/08` and named `2008`, and either finds it. With `competitionId`, one competition's season.",
      example: "2016",
    }),
    stage: z.string().trim().min(1).max(60).optional().openapi({
      description:
        "Only fixtures of this stage, case-insensitively, as the source names it (`Final`, `Qualifier 1`, `Eliminator`, `Semi Final`); league fixtures have none.",
      example: "Final",
    }),
    competitorId: idFilter("Only fixtures this competitor played in.", SAMPLE.competitorId),
    gender: z
      .enum(["male", "female"])
      .optional()
      .openapi({ description: "Only men's (`male`) or women's (`female`) fixtures.", example: "male" }),
    startDateFrom: date("Only fixtures starting on or after this date (YYYY-MM-DD, inclusive).", SAMPLE.startDateFrom),
    startDateTo: date("Only fixtures starting on or before this date (YYYY-MM-DD, inclusive).", SAMPLE.startDateTo),
    sort: sortParam(["startDate"], "startDate"),
    limit: limitParam,
    cursor: cursorParam,
  })
  .refine((q) => !q.startDateFrom || !q.startDateTo || q.startDateFrom <= q.startDateTo, {
    message: "startDateTo must not precede startDateFrom",
    path: ["startDateTo"],
  });

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures",
  tags: ["Public reads"],
  operationId: "listFixtures",
  summary: "List fixtures",
  description: `Fixtures by start date, then id, with names beside ids and each innings' totals. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of fixtures",
      content: { "application/json": { schema: collectionSchema(fixtureSchema, "FixturePage", "Fixtures.") } },
    },
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}",
  tags: ["Public reads"],
  operationId: "getFixture",
  summary: "One fixture",
  description: "The fixture with its squads. Carries the fixture's version in `data.version` and as an ETag.",
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: {
    params: z.object({ fixtureId: pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId) }),
  },
  responses: {
    200: {
      description: "The fixture",
      headers: etagHeader,
      content: {
        "application/json": { schema: z.object({ data: fixtureDetailSchema }).openapi("FixtureResponse") },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
  },
});

export function registerFixtures(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.fixtures, async (c) => {
    const { limit, cursor, ...inputs } = c.req.valid("query");
    const { sort, ...filters } = inputs;
    const page = await keysetPage({
      scope: { operation: "listFixtures", inputs },
      limit,
      cursor,
      key: fixtureKey,
      fetch: (after, take) => listFixtures(sql(), filters, { direction: directionOf(sort), after, take }),
    });
    if (page.data.length === 0)
      await refuseMisplacedIds(sql(), {
        competitionId: { kind: "competition", id: filters.competitionId },
        seasonId: { kind: "season", id: filters.seasonId },
        competitorId: { kind: "competitor", id: filters.competitorId },
      });
    return c.json(page, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.fixtures, async (c) => {
    const fixture = await findFixture(sql(), c.req.valid("param").fixtureId);
    if (!fixture) throw notFound("fixture");
    return versionedJson(c, fixture.version, { data: fixture });
  });
}
