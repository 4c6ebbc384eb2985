import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { storableDate } from "../http/dates.js";
import { errorResponses, notFound } from "../http/errors.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { listParticipantFixtures } from "./queries/fixtures.js";
import { findParticipant } from "./queries/reference.js";
import { participantFixtureSchema } from "./schemas/fixture.js";

const fixtureKey = z.tuple([storableDate(), z.string()]);

const route = createRoute({
  method: "get",
  path: "/api/v1/participants/{participantId}/fixtures",
  tags: ["Public reads"],
  operationId: "listParticipantFixtures",
  summary: "A participant's fixtures",
  description: `Fixtures the participant was named in a squad for or appears in a delivery of, by start date then id, each with how they took part. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: {
    params: z.object({ participantId: pathId("participantId", "Participant id.", SAMPLE.participantId) }),
    query: z.object({ sort: sortParam(["startDate"], "startDate"), limit: limitParam, cursor: cursorParam }),
  },
  responses: {
    200: {
      description: "A page of the participant's fixtures",
      content: {
        "application/json": {
          schema: collectionSchema(
            participantFixtureSchema,
            "ParticipantFixturePage",
            "Fixtures, oldest first by default.",
          ),
        },
      },
    },
    ...errorResponses(404),
  },
});

export function registerParticipantFixtures(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, route, READ_FROM.fixtures, async (c) => {
    const { participantId } = c.req.valid("param");
    const { limit, cursor, sort } = c.req.valid("query");
    if (!(await findParticipant(sql(), participantId))) throw notFound("participant");
    const page = await keysetPage({
      scope: { operation: "listParticipantFixtures", inputs: { participantId, sort } },
      limit,
      cursor,
      key: fixtureKey,
      fetch: (after, take) =>
        listParticipantFixtures(sql(), participantId, { direction: directionOf(sort), after, take }),
    });
    return c.json(page, 200);
  });
}
