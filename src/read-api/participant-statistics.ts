import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { errorResponses, notFound } from "../http/errors.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { idFilter, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { parseAggregateStatisticId, participantAggregates } from "./queries/player-statistics.js";
import { findParticipant } from "./queries/reference.js";
import { participantAggregateSchema } from "./schemas/player-statistics.js";

/**
 * A participant's season, competition and career aggregates, read from `player_aggregate`.
 * Super overs never count. A participant plays in a bounded number of seasons and
 * competitions, so the list comes whole, without paging.
 */
const participantId = pathId("participantId", "Participant id.", SAMPLE.participantId);

/** The path of one participant aggregate: `career`, `season-<seasonId>` or `competition-<competitionId>`. */
export const aggregateParams = z.object({
  participantId,
  statisticId: pathId(
    "statisticId",
    "`career`, `season-<seasonId>` or `competition-<competitionId>`.",
    SAMPLE.participantStatisticId,
  ),
});

const listQuery = z
  .object({
    scope: z.enum(["season", "competition", "career"]).optional().openapi({
      description: "Only aggregates of this kind. Without it, every aggregate: career, competitions, seasons.",
      example: "season",
    }),
    seasonId: idFilter("Only this season's aggregate; needs `scope=season`.", SAMPLE.seasonId),
    competitionId: idFilter(
      `Only this competition's aggregate; needs \`scope=competition\` (the sample's IPL: \`${SAMPLE.competitionId}\`).`,
    ),
  })
  .superRefine((q, ctx) => {
    if (q.seasonId !== undefined && q.scope !== "season")
      ctx.addIssue({ code: "custom", message: "seasonId needs scope=season", path: ["seasonId"] });
    if (q.competitionId !== undefined && q.scope !== "competition")
      ctx.addIssue({ code: "custom", message: "competitionId needs scope=competition", path: ["competitionId"] });
  });

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/participants/{participantId}/statistics",
  tags: ["Statistics"],
  operationId: "listParticipantStatistics",
  summary: "A participant's season, competition and career aggregates",
  description: `Batting, bowling and fielding aggregates over the player's career, each competition and each season they played in (super overs never count): career first, then competitions by name, then seasons by start date. \`scope\` keeps one kind; \`seasonId\` (with \`scope=season\`) or \`competitionId\` (with \`scope=competition\`) keeps one aggregate, and one the player has none for gives an empty list. Rates are rounded half away from zero to 2 decimals and published beside their figures. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { params: z.object({ participantId }), query: listQuery },
  responses: {
    200: {
      description: "The aggregates",
      content: {
        "application/json": {
          schema: z
            .object({ data: z.array(participantAggregateSchema).openapi({ description: "The aggregates." }) })
            .openapi("ParticipantAggregateList"),
        },
      },
    },
    ...errorResponses(404),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/participants/{participantId}/statistics/{statisticId}",
  tags: ["Statistics"],
  operationId: "getParticipantStatistic",
  summary: "One participant aggregate",
  description:
    "One aggregate by its `statisticId`: `career`, `season-<seasonId>` or `competition-<competitionId>`. 404 for a participant that does not exist or a scope they have no aggregate in.",
  ...implemented,
  request: {
    params: aggregateParams,
  },
  responses: {
    200: {
      description: "The aggregate",
      content: {
        "application/json": {
          schema: z.object({ data: participantAggregateSchema }).openapi("ParticipantAggregateResponse"),
        },
      },
    },
    ...errorResponses(404),
  },
});

export function registerParticipantStatistics(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const participantOr404 = async (id: string) => {
    const participant = await findParticipant(sql(), id);
    if (!participant) throw notFound("participant");
    return participant;
  };
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.aggregates, async (c) => {
    const participant = await participantOr404(c.req.valid("param").participantId);
    const { scope, seasonId, competitionId } = c.req.valid("query");
    const data = await participantAggregates(sql(), participant, { type: scope, id: seasonId ?? competitionId });
    return c.json({ data }, 200);
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.aggregates, async (c) => {
    const { participantId: id, statisticId } = c.req.valid("param");
    const participant = await participantOr404(id);
    const scope = parseAggregateStatisticId(statisticId);
    const [aggregate] = scope ? await participantAggregates(sql(), participant, scope) : [];
    if (!aggregate) throw notFound("aggregate of this participant");
    return c.json({ data: aggregate }, 200);
  });
}
