import { createRoute, z } from "@hono/zod-openapi";
import { memoryCache } from "../cache/memory.js";
import { type CacheOutcome, readThrough, STATISTICS_TTL_SECONDS } from "../cache/versioned-cache.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { errorResponses, notFound } from "../http/errors.js";
import { integerParam } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import {
  LEADERBOARD_DEFAULT_ROWS,
  LEADERBOARD_DEPTH,
  LEADERBOARD_METRICS,
  type LeaderboardScope,
  METRICS,
  type Metric,
  qualificationRule,
  rankingRule,
} from "../statistics/leaderboards.js";
import { idFilter, memoised, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { leaderboardRowsJson, leaderboardVersion } from "./queries/leaderboards.js";
import { findLeaderboardScope } from "./queries/player-statistics.js";
import { leaderboardSchema } from "./schemas/player-statistics.js";
import { cacheOutcomeHeader } from "./versioned.js";

export const DEFAULT_LEADERBOARD_LIMIT = LEADERBOARD_DEFAULT_ROWS;
const REPRESENTATION = 4; // bump when the shape of a cached value changes
export const MAX_LEADERBOARD_LIMIT = LEADERBOARD_DEPTH;

const TIE_BREAKS = METRICS.map(
  (metric) => `${metric}: ${LEADERBOARD_METRICS[metric].tieBreaks.map((key) => key.describe).join(", ")}`,
).join("; ");

const query = z
  .object({
    scope: z
      .enum(["season", "competition"])
      .openapi({ description: "Rank over a season or a competition.", example: "season" }),
    seasonId: idFilter("The season; required with `scope=season`, refused otherwise.", SAMPLE.seasonId),
    competitionId: idFilter(
      `The competition; required with \`scope=competition\`, refused otherwise (the sample's IPL: \`${SAMPLE.competitionId}\`).`,
    ),
    metric: z.enum(METRICS).openapi({
      description:
        "Totals: `most_runs`, `most_wickets`, `most_fours`, `most_sixes` (players above 0). Qualified rates: `highest_batting_average`, `highest_strike_rate`, `best_bowling_average`, `best_economy_rate`, `best_bowling_strike_rate`.",
      example: "most_runs",
    }),
    limit: integerParam(
      1,
      MAX_LEADERBOARD_LIMIT,
      `Rows, 1 to ${MAX_LEADERBOARD_LIMIT}; ${DEFAULT_LEADERBOARD_LIMIT} when absent.`,
      DEFAULT_LEADERBOARD_LIMIT,
    )
      .optional()
      .openapi({ default: DEFAULT_LEADERBOARD_LIMIT }),
  })
  .superRefine((q, ctx) => {
    const need = q.scope === "season" ? "seasonId" : "competitionId";
    const refuse = q.scope === "season" ? "competitionId" : "seasonId";
    if (q[need] === undefined)
      ctx.addIssue({ code: "custom", message: `${need} is required with scope=${q.scope}`, path: [need] });
    if (q[refuse] !== undefined)
      ctx.addIssue({ code: "custom", message: `${refuse} cannot be used with scope=${q.scope}`, path: [refuse] });
  });

const route = createRoute({
  method: "get",
  path: "/api/v1/statistics/leaderboards",
  tags: ["Statistics"],
  operationId: "getLeaderboard",
  summary: "Ranked leaderboard for a season or competition",
  description: `A server-ranked table of one metric over a season or a competition (super overs never count). Each row has a 1-based rank, the participant's id and name, the value and the figures behind it. Totals list only players above 0. Rate metrics need a minimum, by scope (season / competition): batting average 5 / 10 batting innings (and a dismissal); strike rate 100 / 250 balls faced; bowling average and bowling strike rate 10 / 20 wickets; economy 120 / 300 balls bowled (20 / 50 overs); the response states the rule applied. Rates rank on their exact value and are published rounded half away from zero to 2 decimals. Equal values are ordered by the metric's cricket tie-breaks in turn (${TIE_BREAKS}); players level on all of them share a rank (1, 2, 2, 4) and are listed by name, then participant id. 400 for a missing or unknown scope or metric, a scope without its id or with the other's, or a limit outside 1 to ${MAX_LEADERBOARD_LIMIT}; 404 for a season or competition that does not exist. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  request: { query },
  responses: {
    200: {
      description: "The table",
      headers: cacheOutcomeHeader("keyed by the version of the season's or competition's tables"),
      content: { "application/json": { schema: leaderboardSchema } },
    },
    ...errorResponses(404),
  },
});

export type LeaderboardQuery = { scope: LeaderboardScope; scopeId: string; metric: Metric; limit: number };
export type LeaderboardRead = (q: LeaderboardQuery) => Promise<{ body: string; outcome: CacheOutcome }>;

/**
 * The leaderboard read, shared by its route and the query evaluation: the whole JSON
 * document, or 404 for a scope that does not exist.
 *
 * A table's rows are cached under its scope's version: a change to that season's or
 * competition's aggregates moves it and makes the old entry unreachable, while changes
 * elsewhere leave it be. The version and the scope's name are memoised until the statistics
 * or the reference data change, so a hit reads nothing from the database. Without a version
 * (tables of an older generation, still served while a rebuild runs) the rows are read every
 * time.
 */
export function leaderboardReader(deps: AppDependencies): LeaderboardRead {
  const sql = readModels(deps);
  const memo = memoised(deps);
  const cache = deps.cache ?? memoryCache();
  return async (q) => {
    // Thrown inside the memo, so a made-up scope memoises nothing.
    const scope = await memo(
      `leaderboard-scope:${q.scope}:${q.scopeId}`,
      async () => (await findLeaderboardScope(sql(), q.scope, q.scopeId)) ?? Promise.reject(notFound(q.scope)),
      READ_FROM.reference,
    );
    const version = await memo(
      `leaderboard-version:${q.scope}:${q.scopeId}`,
      () => leaderboardVersion(sql(), q.scope, q.scopeId),
      ["statistics"],
    );
    // Only the ranked rows are cached under the scope's version: the rest, the scope's name
    // included, comes from the reference data, which that version does not follow.
    const rows = (compute: () => Promise<string>) =>
      version === undefined
        ? compute().then((value) => ({ value, outcome: "bypass" as const }))
        : readThrough(
            cache,
            `leaderboard:${REPRESENTATION}:${q.scope}:${q.scopeId}:${version}:${q.metric}:${q.limit}`,
            STATISTICS_TTL_SECONDS,
            async () => ({ value: await compute(), cacheable: true }),
            deps.logger,
          );
    const { value: data, outcome } = await rows(() =>
      leaderboardRowsJson(sql(), q.metric, q.scope, q.scopeId, q.limit),
    );
    const rest = {
      metric: q.metric,
      description: LEADERBOARD_METRICS[q.metric].describe,
      scope,
      qualification: qualificationRule(q.metric, q.scope),
      ranking: rankingRule(q.metric),
      limit: q.limit,
      provenance: `/api/v1/provenance/participants/{participantId}/statistics/${q.scope}-${q.scopeId}?part=${LEADERBOARD_METRICS[q.metric].family}`,
    };
    // The rows arrive as JSON text: spliced in, never parsed and serialised again.
    return { body: `{"data":${data},${JSON.stringify(rest).slice(1)}`, outcome };
  };
}

export function registerLeaderboards(app: Router, deps: AppDependencies) {
  const read = leaderboardReader(deps);
  openapiCanonicalRead(app, deps, route, READ_FROM.aggregates, async (c) => {
    const q = c.req.valid("query");
    const scopeId = (q.scope === "season" ? q.seasonId : q.competitionId) as string;
    const limit = q.limit ?? DEFAULT_LEADERBOARD_LIMIT;
    const { body, outcome } = await read({ scope: q.scope, scopeId, metric: q.metric, limit });
    return c.body(body, 200, { "Content-Type": "application/json", "X-Cache": outcome.toUpperCase() }) as never;
  });
}
