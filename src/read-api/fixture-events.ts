import { createRoute, z } from "@hono/zod-openapi";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { openapiCanonicalRead } from "../http/canonical-reads.js";
import { ApiError, errorResponses, notFound } from "../http/errors.js";
import { versionedJson } from "../http/etag.js";
import { cursorParam, INTEGER_MAX, keysetPage, limitParam, paginationSchema } from "../http/pagination.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { eventFilters, eventIdFilters } from "./event-filters.js";
import { refuseMisplacedIds } from "./misplaced-ids.js";
import { pathId, READ_FROM, readModels, UNKNOWN_PARAMETERS } from "./params.js";
import { findEvent, listEvents } from "./queries/events.js";
import { fixtureVersion } from "./queries/fixtures.js";
import { eventSchema } from "./schemas/event.js";
import { etagHeader, fixtureVersionField, ifNoneMatchParameter, notModifiedResponse } from "./versioned.js";

const ordinal = z.number().int().min(0).max(INTEGER_MAX);
const eventKey = z.tuple([ordinal, ordinal, z.uuid()]);
const fixtureId = pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId);

const listRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/events",
  tags: ["Public reads"],
  operationId: "listFixtureEvents",
  summary: "Accepted delivery events in occurrence order",
  description: `The current revision of each delivery, in occurrence order (innings ordinal, then sequence number); the order is fixed, there is no \`sort\`. Filters combine with AND; an innings or competitor the fixture does not have matches nothing. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: {
    params: z.object({ fixtureId }),
    query: z.object({ ...eventFilters, limit: limitParam, cursor: cursorParam }),
  },
  responses: {
    200: {
      description: "A page of events",
      headers: etagHeader,
      content: {
        "application/json": {
          schema: z
            .object({
              data: z.array(eventSchema).openapi({ description: "Events in occurrence order." }),
              pagination: paginationSchema,
              fixtureVersion: fixtureVersionField,
            })
            .openapi("EventPage"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
  },
});

const detailRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/events/{eventId}",
  tags: ["Public reads"],
  operationId: "getFixtureEvent",
  summary: "One current accepted event",
  description: "The current revision of one delivery of the fixture. An id that is not a UUID is simply not found.",
  ...implemented,
  parameters: [ifNoneMatchParameter],
  request: {
    params: z.object({
      fixtureId,
      eventId: pathId("eventId", "The delivery's event id (UUID).", SAMPLE.eventId),
    }),
  },
  responses: {
    200: {
      description: "The event",
      headers: etagHeader,
      content: {
        "application/json": {
          schema: z.object({ data: eventSchema, fixtureVersion: fixtureVersionField }).openapi("EventResponse"),
        },
      },
    },
    ...notModifiedResponse,
    ...errorResponses(404),
  },
});

export function registerFixtureEvents(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  openapiCanonicalRead(app, deps, listRoute, READ_FROM.fixtures, async (c) => {
    const { fixtureId } = c.req.valid("param");
    const { limit, cursor, ...filters } = c.req.valid("query");
    let version: number | undefined;
    const page = await keysetPage({
      scope: { operation: "listFixtureEvents", inputs: { fixtureId, ...filters } },
      limit,
      cursor,
      key: eventKey,
      fetch: async (after, take) => {
        const found = await listEvents(sql(), fixtureId, filters, after, take);
        version = found.version;
        return found.events;
      },
    }).catch(async (refused) => {
      // A cursor is refused before the page is read; a fixture that does not exist is still a 404.
      if (refused instanceof ApiError && (await fixtureVersion(sql(), fixtureId)) === undefined)
        throw notFound("fixture");
      throw refused;
    });
    if (version === undefined) throw notFound("fixture");
    if (page.data.length === 0) await refuseMisplacedIds(sql(), eventIdFilters(filters));
    return versionedJson(c, version, { ...page, fixtureVersion: version });
  });
  openapiCanonicalRead(app, deps, detailRoute, READ_FROM.fixtures, async (c) => {
    const { fixtureId, eventId } = c.req.valid("param");
    const { version, event } = await findEvent(sql(), fixtureId, eventId);
    if (version === undefined) throw notFound("fixture");
    if (!event) throw notFound("event");
    return versionedJson(c, version, { data: event, fixtureVersion: version });
  });
}
