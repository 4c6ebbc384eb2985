import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { memoryCache } from "../cache/memory.js";
import { readThrough, STATISTICS_TTL_SECONDS } from "../cache/versioned-cache.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { ApiError, errorResponse, errorResponses, notFound } from "../http/errors.js";
import { taggedFile, versionedEtag, versionedJson } from "../http/etag.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { EXPORT_EVENT_LIMIT } from "./fixture-event-exports.js";
import { memoised, pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import {
  everyStatistic,
  findStatistic,
  type LoadedStatistics,
  type LocatedStatistic,
  loadFixtureStatistics,
  type StatisticsVersions,
  statisticsVersions,
  statisticsWithin,
} from "./queries/fixture-statistics.js";
import { fixtureVersion } from "./queries/fixtures.js";
import { stableTrace, withContributors } from "./queries/statistic-trace.js";
import {
  anyStatisticSchema,
  type FixtureStatisticsDocument,
  fixtureStatisticsSchema,
  inningsContextSchema,
} from "./schemas/fixture-statistics.js";
import { nullableRef } from "./schemas/reference.js";
import { etagHeader, fixtureVersionField, ifNoneMatchParameter, notModifiedResponse } from "./versioned.js";

/**
 * Fixture statistics, served through the versioned cache: a representation is cached for 60
 * seconds under the fixture's id, its version, the change its statistics reflect and the
 * statistic, so a new accepted change makes the old entry unreachable. Contributor traces
 * (`includeContributors=true`) bypass the cache and are read between two version reads.
 */
const REPRESENTATION = 2; // bump when the shape of a cached body changes

export const statisticsCacheKey = (fixtureId: string, v: StatisticsVersions, part: string) =>
  `cricket:fixture-statistics:r${REPRESENTATION}:${encodeURIComponent(fixtureId)}:${v.version}:${v.sourceRevision}:${part}`;

export const includeContributorsParam = z.enum(["true", "false"]).optional().openapi({
  description:
    "`true` adds `contributors` to every statistic returned: the event ids of the current accepted deliveries it is derived from. Such responses bypass the cache; `false` (the default) leaves them out.",
  example: "true",
});

const fixtureId = pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId);
const statisticId = pathId(
  "statisticId",
  "Statistic id: `innings-<ordinal>` (whole innings), `innings-<ordinal>-batting`, `-bowling`, `-extras`, `-total`, `-fall-of-wickets`, `-partnerships`, `-overs`, `innings-<ordinal>-batter-<participantId>`, `innings-<ordinal>-bowler-<participantId>`, `result` or `completeness`. The ordinal is zero-based.",
  "innings-0-batting",
);

const cacheHeaders = {
  ...etagHeader,
  "X-Cache": {
    description:
      "`HIT` when served from the versioned cache, `MISS` when computed (and cached), `BYPASS` for contributor traces and while the cache is unavailable.",
    schema: { type: "string" as const, enum: ["HIT", "MISS", "BYPASS"], example: "HIT" },
  },
};

const traceConflict = {
  ...errorResponse(
    409,
    "TRACE_CHANGED: with `includeContributors=true`, the fixture changed while the trace was read; repeat the request.",
  ),
  ...errorResponse(
    422,
    `EXPORT_TOO_LARGE: with \`includeContributors=true\`, a statistic has more than ${EXPORT_EVENT_LIMIT} contributing events.`,
  ),
};

const common = `Derived only from the current accepted delivery revisions. Rates are rounded half away from zero to 2 decimals and published beside the figures they come from. Cached for 60 seconds per fixture version (the \`X-Cache\` header says whether this answer came from the cache); the ETag carries the fixture's version. ${UNKNOWN_PARAMETERS}`;

const documentRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/statistics",
  tags: ["Statistics"],
  operationId: "getFixtureStatistics",
  summary: "Derived fixture statistics and completeness state",
  description: `Every statistic of the fixture: per innings (super overs included and flagged) the batting card, bowling card, extras, total with wickets, overs, run rate and target, fall of wickets, partnerships and runs and wickets per over; the result; and whether the data is complete. Every statistic has a stable \`statisticId\`. ${common}`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: {
    params: z.object({ fixtureId }),
    query: z.object({ includeContributors: includeContributorsParam }),
  },
  responses: {
    200: {
      description: "The fixture's statistics",
      headers: cacheHeaders,
      content: {
        "application/json": {
          schema: z
            .object({ data: fixtureStatisticsSchema, fixtureVersion: fixtureVersionField })
            .openapi("FixtureStatisticsResponse"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...traceConflict,
  },
});

const statisticRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/statistics/{statisticId}",
  tags: ["Statistics"],
  operationId: "getFixtureStatistic",
  summary: "One fixture statistic",
  description: `One statistic of the fixture, exactly as it appears in the whole document, with the innings it belongs to (null for \`result\` and \`completeness\`). An id the fixture does not have (an innings it does not have, a player who did not bat or bowl in it) is 404. ${common}`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: {
    params: z.object({ fixtureId, statisticId }),
    query: z.object({ includeContributors: includeContributorsParam }),
  },
  responses: {
    200: {
      description: "The statistic",
      headers: cacheHeaders,
      content: {
        "application/json": {
          schema: z
            .object({
              data: anyStatisticSchema,
              fixtureId: z.string().openapi({ description: "The fixture.", example: SAMPLE.fixtureId }),
              fixtureVersion: fixtureVersionField,
              innings: nullableRef(inningsContextSchema, "The innings the statistic belongs to."),
            })
            .openapi("FixtureStatisticResponse"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...traceConflict,
  },
});

const notDerived = () => new ApiError("NOT_FOUND", "The fixture's statistics are not derived yet; try again shortly");

/** The response body of one statistic, or 404 for an id the document does not have. */
function statisticBody(document: FixtureStatisticsDocument, id: string, version: number) {
  const found = findStatistic(document, id);
  if (!found) throw notFound("statistic of this fixture");
  return { data: found.statistic, fixtureId: document.fixtureId, fixtureVersion: version, innings: found.innings };
}

export function registerFixtureStatistics(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const memo = memoised(deps);
  const cache = deps.cache ?? memoryCache();
  const limit = deps.limits?.exportEvents ?? EXPORT_EVENT_LIMIT;

  /**
   * The document's JSON body through the cache, kept as `<ETag>\n<body>` so a hit needs no
   * hashing; `body` turns the loaded statistics into what is sent.
   */
  async function cached(c: Context, fixture: string, part: string, body: (loaded: Loaded) => object) {
    const versions = await memo(`statistics-versions:${fixture}`, () => statisticsVersions(sql(), fixture), [
      "fixtures",
      "stream_versions",
      "statistics",
    ]);
    if (!versions) throw notFound("fixture");
    if (versions.sourceRevision === null) throw notDerived();
    const { value, outcome } = await readThrough(
      cache,
      statisticsCacheKey(fixture, versions, part),
      STATISTICS_TTL_SECONDS,
      async () => {
        const loaded = await load(fixture);
        const json = JSON.stringify(body(loaded));
        const cacheable = loaded.version === versions.version && loaded.sourceRevision === versions.sourceRevision;
        return { value: `${versionedEtag(loaded.version, json)}\n${json}`, cacheable };
      },
      deps.logger,
    );
    const split = value.indexOf("\n"); // JSON text never holds a raw newline
    return taggedFile(c, value.slice(0, split), value.slice(split + 1), {
      "Content-Type": "application/json",
      "X-Cache": outcome.toUpperCase(),
    });
  }

  type Loaded = LoadedStatistics & { document: FixtureStatisticsDocument };
  async function load(fixture: string): Promise<Loaded> {
    const loaded = await loadFixtureStatistics(sql(), fixture);
    if (!loaded) throw notFound("fixture");
    if (!loaded.document) throw notDerived();
    return loaded as Loaded;
  }

  /**
   * With contributors: the document (or one statistic of it) and its traces, read between two
   * version reads, never through the cache. `pick` chooses the statistics that get traces.
   */
  const traced = (fixture: string, pick: (document: FixtureStatisticsDocument) => LocatedStatistic[]) =>
    stableTrace(
      () => fixtureVersion(sql(), fixture),
      async () => {
        const { document } = await load(fixture);
        await withContributors(sql(), fixture, pick(document), limit);
        return document;
      },
    );

  openapiCanonicalRead(app, deps, documentRoute, READ_FROM.statistics, async (c) => {
    const { fixtureId } = c.req.valid("param");
    if (c.req.valid("query").includeContributors === "true") {
      const { version, value } = await traced(fixtureId, everyStatistic);
      return versionedJson(c, version, { data: value, fixtureVersion: version }, { "X-Cache": "BYPASS" });
    }
    return cached(c, fixtureId, "document", (l) => ({ data: l.document, fixtureVersion: l.version }));
  });

  openapiCanonicalRead(app, deps, statisticRoute, READ_FROM.statistics, async (c) => {
    const { fixtureId, statisticId } = c.req.valid("param");
    if (c.req.valid("query").includeContributors === "true") {
      const { version, value } = await traced(fixtureId, (document) => {
        const found = findStatistic(document, statisticId);
        return found ? statisticsWithin(document, found) : [];
      });
      return versionedJson(c, version, statisticBody(value, statisticId, version), { "X-Cache": "BYPASS" });
    }
    return cached(c, fixtureId, `statistic:${encodeURIComponent(statisticId)}`, (l) =>
      statisticBody(l.document, statisticId, l.version),
    );
  });
}
