import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { ApiError, errorResponse, errorResponses, notFound } from "../http/errors.js";
import { versionedFile, versionedJson } from "../http/etag.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { CSV_COLUMNS } from "../submissions/csv.js";
import { eventsCsv } from "./events-csv.js";
import { EXPORT_EVENT_LIMIT } from "./fixture-event-exports.js";
import { pathId, READ_FROM, readModels } from "./params.js";
import { toEvents } from "./queries/events.js";
import { findStatistic, loadFixtureStatistics } from "./queries/fixture-statistics.js";
import { fixtureVersion } from "./queries/fixtures.js";
import { stableTrace, traceOf } from "./queries/statistic-trace.js";
import { eventSchema } from "./schemas/event.js";
import { etagHeader, fixtureVersionField, ifNoneMatchParameter, notModifiedResponse } from "./versioned.js";

/**
 * The contributing accepted events of one fixture statistic, as JSON or CSV files. The trace
 * is read between two reads of the fixture version: a change in between answers 409
 * TRACE_CHANGED instead of a file mixing two versions. Never cached.
 */

/** A fixture statistic's path parameters: its fixture and its id. */
export const statisticParams = z.object({
  fixtureId: pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId),
  statisticId: pathId(
    "statisticId",
    "A statistic id of the fixture (see `GET /fixtures/{fixtureId}/statistics/{statisticId}`).",
    SAMPLE.batterStatisticId,
  ),
});

const request = {
  params: statisticParams,
};

const failures = {
  ...errorResponse(
    409,
    "TRACE_CHANGED: the fixture changed (a delivery, a correction, the result) while the trace was read; repeat the request.",
  ),
  ...errorResponse(422, `EXPORT_TOO_LARGE: more than ${EXPORT_EVENT_LIMIT} contributing events.`),
};

const attachment = (fixtureId: string, statisticId: string, extension: string) =>
  `attachment; filename="${`${fixtureId}-${statisticId}`.replace(/[^A-Za-z0-9._-]/g, "_")}-events.${extension}"`;

const common = `The current accepted deliveries the statistic is derived from, in occurrence order, as a file attachment; at most ${EXPORT_EVENT_LIMIT}. Contributors: every delivery of the innings for an innings, its cards, total, partnerships and overs; the deliveries with an extra for extras, with a dismissal for the fall of wickets; the deliveries a batter was on strike for or out on; those a bowler bowled; every delivery of the fixture for the result and completeness. Never cached; carries the fixture's version as an ETag. Takes no query parameters.`;

const fileHeaders = (extension: string) => ({
  ...etagHeader,
  "Content-Disposition": {
    description: `attachment; filename="<fixtureId>-<statisticId>-events.${extension}"`,
    schema: { type: "string" as const },
  },
});

const jsonRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/statistics/{statisticId}/events/export.json",
  tags: ["Statistics"],
  operationId: "exportFixtureStatisticEventsJson",
  summary: "Contributing events of a statistic as JSON",
  description: `${common} Each event has the events list's fields.`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request,
  responses: {
    200: {
      description: "The trace",
      headers: fileHeaders("json"),
      content: {
        "application/json": {
          schema: z
            .object({
              data: z.array(eventSchema).openapi({ description: "Every contributing event, in occurrence order." }),
              fixtureId: z.string().openapi({ description: "The fixture.", example: SAMPLE.fixtureId }),
              statisticId: z.string().openapi({ description: "The statistic.", example: SAMPLE.batterStatisticId }),
              fixtureVersion: fixtureVersionField,
              count: z.number().int().min(0).openapi({ description: "Events in `data`.", example: 25 }),
            })
            .openapi("StatisticTraceExport"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...failures,
  },
});

const csvRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/statistics/{statisticId}/events/export.csv",
  tags: ["Statistics"],
  operationId: "exportFixtureStatisticEventsCsv",
  summary: "Contributing events of a statistic as CSV",
  description: `${common} The columns are the CSV upload's, in its order (${CSV_COLUMNS.join(", ")}), as in the fixture's events export.`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request,
  responses: {
    200: {
      description: "The trace",
      headers: fileHeaders("csv"),
      content: {
        "text/csv": {
          schema: z
            .string()
            .openapi({ description: "CSV with a header row.", example: `${CSV_COLUMNS.join(",")}\r\n` }),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...failures,
  },
});

export function registerFixtureStatisticExports(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const limit = deps.limits?.exportEvents ?? EXPORT_EVENT_LIMIT;

  /** The statistic's contributing deliveries with the version they were read at; 404, 409 or 422. */
  const trace = (fixtureId: string, statisticId: string) =>
    stableTrace(
      () => fixtureVersion(sql(), fixtureId),
      async () => {
        const loaded = await loadFixtureStatistics(sql(), fixtureId);
        if (!loaded?.document) throw new ApiError("NOT_FOUND", "The fixture's statistics are not derived yet");
        const located = findStatistic(loaded.document, statisticId);
        if (!located) throw notFound("statistic of this fixture");
        return traceOf(sql(), fixtureId, located, limit);
      },
    );

  openapiCanonicalRead(app, deps, jsonRoute, READ_FROM.statistics, async (c) => {
    const { fixtureId, statisticId } = c.req.valid("param");
    const { version, value: rows } = await trace(fixtureId, statisticId);
    const data = await toEvents(sql(), rows);
    return versionedJson(
      c,
      version,
      { data, fixtureId, statisticId, fixtureVersion: version, count: data.length },
      { "Content-Disposition": attachment(fixtureId, statisticId, "json") },
    );
  });
  openapiCanonicalRead(app, deps, csvRoute, READ_FROM.statistics, async (c) => {
    const { fixtureId, statisticId } = c.req.valid("param");
    const { version, value: rows } = await trace(fixtureId, statisticId);
    return versionedFile(c, version, eventsCsv(rows), {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": attachment(fixtureId, statisticId, "csv"),
    });
  });
}
