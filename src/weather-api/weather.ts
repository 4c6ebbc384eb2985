import { createRoute, z } from "@hono/zod-openapi";
import type { CommandContext } from "../commands/handle.js";
import { locateVenue } from "../commands/venues/handlers.js";
import { anonymousAccess } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { application, commandContext, settled } from "../http/authentication.js";
import { storableDate } from "../http/dates.js";
import { ApiError, errorResponse, errorResponses, notFound } from "../http/errors.js";
import { SAMPLE } from "../ingest/sample-ids.js";
import { pathId, readModels, UNKNOWN_PARAMETERS } from "../read-api/params.js";
import { fixturePlace, fixtureWeather, type Located } from "../weather/fixture-weather.js";
import type { Weather } from "../weather/weather.js";
import { ATTRIBUTION_LINK, attributionHeader, fixtureWeatherSchema, weatherResultSchema } from "./schemas.js";

/**
 * Weather context (public; the anonymous read limits apply per client): a place and date, or
 * a fixture's start date at its venue. Only the service calls the provider; its failures
 * are 502, 503 or 504 here and touch no other read (docs/weather.md).
 */

const TAGS = ["Weather"];
/** Who keeps a location a lookup found, in the venue's events. */
const GEOCODER = "weather-geocoder";

const coordinate = (name: string, limit: number, example: number) =>
  z
    .string()
    .max(32, `${name} must be a number of degrees`)
    .regex(/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/, `${name} must be a number of degrees, as JSON writes one`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(-limit, `${name} must be between -${limit} and ${limit}`)
        .max(limit, `${name} must be between -${limit} and ${limit}`),
    )
    .openapi({
      type: "number",
      minimum: -limit,
      maximum: limit,
      description: `Decimal degrees, -${limit} to ${limit}.`,
      example,
    });

const providerFailures = {
  ...errorResponse(502, "UPSTREAM_ERROR: the weather provider answered an error, not JSON, or an unexpected shape"),
  ...errorResponse(
    503,
    "WEATHER_SERVICE_UNAVAILABLE: the weather provider could not be reached (or the database, DATABASE_UNAVAILABLE)",
  ),
  ...errorResponse(504, "UPSTREAM_TIMEOUT: the weather provider was silent beyond 5000 ms, twice"),
};

const weatherRoute = createRoute({
  method: "get",
  path: "/api/v1/weather",
  tags: TAGS,
  operationId: "getWeather",
  summary: "Weather for a location and date",
  description: `The day's weather at a point: from the provider's forecast for dates from 92 days ago to 16 days ahead, from its archive for 1940-01-01 up to that window; any other date is 422 DATE_UNSUPPORTED. Days run midnight to midnight in the place's own time zone. Every parameter is required; a missing, non-numeric or out-of-range one is 400 VALIDATION_FAILED naming it. ${UNKNOWN_PARAMETERS}`,
  ...implemented,
  security: [],
  request: {
    query: z.object({
      latitude: coordinate("latitude", 90, 18.9389),
      longitude: coordinate("longitude", 180, 72.8258),
      date: storableDate().openapi({ description: "The day, YYYY-MM-DD.", example: "2024-04-07" }),
    }),
  },
  responses: {
    200: {
      description: "The day's weather",
      headers: attributionHeader,
      content: { "application/json": { schema: z.object({ data: weatherResultSchema }).openapi("WeatherResponse") } },
    },
    ...errorResponses(400, 429),
    ...errorResponse(422, "DATE_UNSUPPORTED: the date is outside both the forecast and the archive range"),
    ...providerFailures,
  },
});

const fixtureWeatherRoute = createRoute({
  method: "get",
  path: "/api/v1/fixtures/{fixtureId}/weather",
  tags: TAGS,
  operationId: "getFixtureWeather",
  summary: "Weather on a fixture's start date at its venue",
  description:
    "At the venue's stored coordinates; a venue without them is located by geocoding (its name in its stored city, then the city, then the other names its sources wrote), and the place found is kept on the venue, so later asks need no lookup (a rename clears it). 200 with `availability: unavailable`, a `reason` and `weather: null` when the fixture has no venue, its venue cannot be located or holds half a pair of coordinates, or its date is outside both provider ranges. 404 for an unknown fixture. Provider failures are 502, 503 or 504, and never affect the fixture's own reads.",
  ...implemented,
  security: [],
  request: { params: z.object({ fixtureId: pathId("fixtureId", "Fixture id.", SAMPLE.fixtureId) }) },
  responses: {
    200: {
      description: "The fixture's weather, or why there is none",
      headers: attributionHeader,
      content: {
        "application/json": { schema: z.object({ data: fixtureWeatherSchema }).openapi("FixtureWeatherResponse") },
      },
    },
    ...errorResponses(404, 429),
    ...providerFailures,
  },
});

const weatherOf = (deps: AppDependencies): Weather => {
  if (!deps.weather) throw new Error("this app was created without a weather provider");
  return deps.weather;
};

/**
 * Keeps a location found for a venue on its stream, and waits until the venue's read model
 * has it, so the next ask reads it (read-your-writes). Keeping it is a saving, not the
 * answer: a failure to keep it is logged and the weather answered all the same.
 */
const rememberer =
  (deps: AppDependencies, context: CommandContext) =>
  async (venue: { venueId: string; name: string; city: string | null }, { place, query }: Located) => {
    const services = application(deps);
    try {
      const outcome = await locateVenue(
        services.store,
        {
          venueId: venue.venueId,
          latitude: place.latitude,
          longitude: place.longitude,
          source: {
            provider: "open-meteo-geocoding",
            query,
            placeId: place.id,
            placeName: place.name,
            country: place.country ?? null,
          },
          lookedUpAs: { name: venue.name, city: venue.city },
        },
        context,
      );
      await settled(services, outcome, ["reference_data"]);
    } catch (err) {
      deps.logger.error({ err, venueId: venue.venueId }, "could not keep the location found for a venue");
    }
  };

export function registerWeather(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const access = { middleware: [anonymousAccess(deps)] };

  app.openapi({ ...weatherRoute, ...access }, async (c) => {
    const { latitude, longitude, date } = c.req.valid("query");
    const weather = await weatherOf(deps).day(latitude, longitude, date);
    if (!weather)
      throw new ApiError(
        "DATE_UNSUPPORTED",
        `No weather is available for ${date}: dates from 1940-01-01 to 16 days ahead are`,
      );
    c.header("Link", ATTRIBUTION_LINK);
    return c.json({ data: weather }, 200);
  });

  app.openapi({ ...fixtureWeatherRoute, ...access }, async (c) => {
    const { fixtureId } = c.req.valid("param");
    const place = await fixturePlace(sql(), fixtureId);
    if (!place) throw notFound("fixture");
    const remember = rememberer(deps, { ...commandContext(c), actor: GEOCODER });
    const answer = await fixtureWeather({ weather: weatherOf(deps), remember }, fixtureId, place);
    c.header("Link", ATTRIBUTION_LINK);
    return c.json({ data: answer }, 200);
  });
}
