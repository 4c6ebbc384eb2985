import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { errorResponses, notFound } from "../http/errors.js";
import { collectionSchema, cursorParam, directionOf, keysetPage, limitParam, sortParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { nameFilter, oneResource, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findParticipant, listParticipants } from "./queries/reference.js";
import { participantSchema } from "./schemas/reference.js";

const nameKey = z.tuple([z.string(), z.string()]);

const listQuery = z.object({
  name: nameFilter("participants", "virat kohli"),
  sort: sortParam(["name"], "name"),
  limit: limitParam,
  cursor: cursorParam,
});

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/participants",
  tags: ["Public reads"],
  operationId: "listParticipants",
  summary: "List participants",
  description: `Participants by name (case-insensitive), then id. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query: listQuery },
  responses: {
    200: {
      description: "A page of participants",
      content: {
        "application/json": { schema: collectionSchema(participantSchema, "ParticipantPage", "Participants.") },
      },
    },
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/participants/{participantId}",
  tags: ["Public reads"],
  operationId: "getParticipant",
  summary: "One participant",
  description: oneResource("participant"),
  ...implemented,
  request: { params: z.object({ participantId: pathId("participantId", "Participant id.", SAMPLE.participantId) }) },
  responses: {
    200: {
      description: "The participant",
      content: { "application/json": { schema: z.object({ data: participantSchema }).openapi("ParticipantResponse") } },
    },
    ...errorResponses(404),
  },
});

export function registerParticipants(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.reference, async (c) => {
    const { limit, cursor, ...inputs } = c.req.valid("query");
    const page = await keysetPage({
      scope: { operation: "listParticipants", inputs },
      limit,
      cursor,
      key: nameKey,
      fetch: (after, take) =>
        listParticipants(sql(), { name: inputs.name, direction: directionOf(inputs.sort), after, take }),
    });
    return c.json(page, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.reference, async (c) => {
    const participant = await findParticipant(sql(), c.req.valid("param").participantId);
    if (!participant) throw notFound("participant");
    return c.json({ data: participant }, 200);
  });
}
