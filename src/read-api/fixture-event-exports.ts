import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { Sql } from "../db/database.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { ApiError, errorResponse, errorResponses, notFound } from "../http/errors.js";
import { taggedFile, versionedEtag } from "../http/etag.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { CSV_COLUMNS } from "../submissions/csv.js";
import { eventFilters, eventIdFilters } from "./event-filters.js";
import {
  eventsCsvHeader,
  eventsCsvRows,
  type InningsTeams,
  READABLE_COLUMNS,
  readableCsvHeader,
  readableCsvRows,
} from "./events-csv.js";
import { type ExpectedDigest, type ExportFormat, exportBody } from "./export-body.js";
import { refuseMisplacedIds } from "./misplaced-ids.js";
import { pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { type EventFilters, exportDigest, inningsTeams, toEvents } from "./queries/events.js";
import { type Event, eventSchema } from "./schemas/event.js";
import { etagHeader, fixtureVersionField, ifNoneMatchParameter, notModifiedResponse } from "./versioned.js";

/**
 * Exports hold every matching event in one response, up to 5,000: the implementation limit
 * of the specification rather than its documented 100, because a whole Test (about 2,000
 * deliveries) must fit in one file. More answers 422 EXPORT_TOO_LARGE; filters narrow it.
 */
export const EXPORT_EVENT_LIMIT = 5000;
/** Deliveries read and rendered at a time: a few milliseconds of work, a few hundred kB. */
const EXPORT_PAGE = 250;

const params = z.object({ fixtureId: pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId) });
const request = { params, query: z.object(eventFilters) };
const csvRequest = {
  params,
  query: z.object({
    ...eventFilters,
    columns: z
      .enum(["upload", "readable"])
      .default("upload")
      .openapi({
        description: `\`upload\` (the default): the CSV upload's columns only, so the file can be uploaded again. \`readable\`: those, then ${READABLE_COLUMNS.join(", ")}: the innings from 1, team and player names, and each wicket's kind, player out and fielders in their own cells (two wickets on one ball \` | \`-separated, fielders \`; \`-separated, a substitute marked \`(sub)\`).`,
        example: "readable",
      }),
  }),
};

const tooLarge = {
  ...errorResponse(
    422,
    `More than ${EXPORT_EVENT_LIMIT} events match (EXPORT_TOO_LARGE); narrow the export with filters or page through the events list.`,
  ),
};

const attachment = (fixtureId: string, extension: string) =>
  `attachment; filename="${fixtureId.replace(/[^A-Za-z0-9._-]/g, "_")}-events.${extension}"`;

const common = `Every event matching the filters (the events list's filters, without paging), in occurrence order, as a file attachment; at most ${EXPORT_EVENT_LIMIT}. Carries the fixture's version as an ETag. ${UNKNOWN_PARAMETERS}`;

/** The Content-Disposition header of an export: an attachment named after the fixture. */
const attachmentHeader = (extension: "json" | "csv") => ({
  "Content-Disposition": {
    description: `attachment; filename="<fixtureId>-events.${extension}"`,
    schema: { type: "string" as const },
  },
});

const jsonRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/events/export.json",
  tags: ["Public reads"],
  operationId: "exportFixtureEventsJson",
  summary: "Every matching event as JSON",
  description: `${common} Each event has the events list's fields. Filename \`<fixtureId>-events.json\`.`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request,
  responses: {
    200: {
      description: "The export",
      headers: {
        ...etagHeader,
        ...attachmentHeader("json"),
      },
      content: {
        "application/json": {
          schema: z
            .object({
              data: z.array(eventSchema).openapi({ description: "Every matching event, in occurrence order." }),
              fixtureId: z.string().openapi({ description: "The fixture.", example: SAMPLE.fixtureId }),
              fixtureVersion: fixtureVersionField,
              count: z.number().int().min(0).openapi({ description: "Events in `data`.", example: 247 }),
            })
            .openapi("EventExport"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...tooLarge,
  },
});

const csvRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/events/export.csv",
  tags: ["Public reads"],
  operationId: "exportFixtureEventsCsv",
  summary: "Every matching event as CSV",
  description: `${common} By default the columns are the CSV upload's, in its order (${CSV_COLUMNS.join(", ")}), so the file can be uploaded again unchanged: \`schemaVersion\` 1.0, empty cells for absent values, \`wickets\` a JSON array in its cell (empty when none). \`columns=readable\` adds names and wickets in cells of their own after those (for reading: the upload takes its own columns only, so a file to upload again is the default one). RFC 4180, UTF-8, CRLF line ends. Filename \`<fixtureId>-events.csv\`.`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: csvRequest,
  responses: {
    200: {
      description: "The export",
      headers: {
        ...etagHeader,
        ...attachmentHeader("csv"),
      },
      content: {
        "text/csv": {
          schema: z.string().openapi({
            description: "CSV with a header row.",
            example: `${CSV_COLUMNS.join(",")}\r\n`,
          }),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
    ...tooLarge,
  },
});

export function registerFixtureEventExports(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const limit = deps.limits?.exportEvents ?? EXPORT_EVENT_LIMIT;
  const pageSize = deps.limits?.exportPage ?? EXPORT_PAGE;

  /**
   * The export's answer: 404 or 422 before anything is read, 304 when the client holds it,
   * else its body, read a page at a time as the client takes it.
   */
  async function exported(
    c: Context,
    { fixtureId }: { fixtureId: string },
    filters: EventFilters,
    kind: "json" | "csv" | "readable csv",
    headers: Record<string, string>,
  ) {
    const digest = await exportDigest(sql(), fixtureId, filters);
    const { version } = digest;
    if (version === undefined) throw notFound("fixture");
    if (digest.count === 0) await refuseMisplacedIds(sql(), eventIdFilters(filters));
    if (digest.count > limit) {
      throw new ApiError(
        "EXPORT_TOO_LARGE",
        `More than ${limit} events match; narrow the export with filters (inningsId, overNumber, …) or page through /events`,
      );
    }
    // The upload CSV shows no names: a renamed player leaves its file, and its ETag, as they were.
    const shown: ExpectedDigest = kind === "csv" ? { rows: digest.rows } : { rows: digest.rows, names: digest.names };
    const made = [kind, JSON.stringify(Object.entries(filters).sort()), shown.rows, shown.names ?? ""];
    const etag = versionedEtag(version, made.join("\n"));
    const format =
      kind === "json"
        ? jsonFormat(sql(), fixtureId, version, digest.count)
        : kind === "csv"
          ? csvFormat
          : readableCsvFormat(sql(), await inningsTeams(sql(), fixtureId));
    const body = exportBody(sql(), fixtureId, filters, pageSize, format, shown);
    const extension = kind === "json" ? "json" : "csv";
    return taggedFile(c, etag, body, { ...headers, "Content-Disposition": attachment(fixtureId, extension) });
  }

  openapiCanonicalRead(app, deps, jsonRoute, READ_FROM.fixtures, (c) =>
    exported(c, c.req.valid("param"), c.req.valid("query"), "json", { "Content-Type": "application/json" }),
  );
  openapiCanonicalRead(app, deps, csvRoute, READ_FROM.fixtures, (c) => {
    const { columns, ...filters } = c.req.valid("query");
    const kind = columns === "readable" ? "readable csv" : "csv";
    return exported(c, c.req.valid("param"), filters, kind, { "Content-Type": "text/csv; charset=utf-8" });
  });
}

/** `{"data":[…],"fixtureId":…,"fixtureVersion":…,"count":…}`, byte for byte what `c.json` would send. */
const jsonFormat = (sql: Sql, fixtureId: string, version: number, count: number): ExportFormat => ({
  head: '{"data":[',
  async page(rows, first) {
    const events = await toEvents(sql, rows);
    const items = events.map((event) => JSON.stringify(event)).join(",");
    return { text: first || !items ? items : `,${items}`, names: events.flatMap(namesShown) };
  },
  tail: `],"fixtureId":${JSON.stringify(fixtureId)},"fixtureVersion":${version},"count":${count}}`,
});

const csvFormat: ExportFormat = {
  head: eventsCsvHeader,
  page: async (rows) => ({ text: eventsCsvRows(rows) }),
  tail: "",
};

const readableCsvFormat = (sql: Sql, teams: InningsTeams): ExportFormat => ({
  head: readableCsvHeader,
  async page(rows) {
    const events = await toEvents(sql, rows);
    return { text: readableCsvRows(rows, events, teams), names: events.flatMap(namesShown) };
  },
  tail: "",
});

/** The participants an event names, with their names (those the reference data has). */
const namesShown = (e: Event): [string, string][] =>
  [
    [e.strikerId, e.strikerName],
    [e.nonStrikerId, e.nonStrikerName],
    [e.bowlerId, e.bowlerName],
    ...e.wickets.flatMap((w) => [
      [w.playerOutId, w.playerOutName] as const,
      ...w.fielders.map((f) => [f.participantId, f.name] as const),
    ]),
  ].filter((pair): pair is [string, string] => pair[1] !== null);
