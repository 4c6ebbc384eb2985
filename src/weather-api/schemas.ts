import { z } from "@hono/zod-openapi";
import { SAMPLE } from "../ingest/sample-ids.js";
import { nullableRef } from "../read-api/schemas/reference.js";

const measurement = (description: string, example: number) =>
  z
    .number()
    .nullable()
    .openapi({ description: `${description}; null when the provider has no value.`, example });

export const weatherResultSchema = z
  .object({
    date: z.string().openapi({ description: "The day (YYYY-MM-DD), local to the place.", example: "2024-04-07" }),
    latitude: z.number().openapi({ description: "Decimal degrees, as asked about.", example: 18.9389 }),
    longitude: z.number().openapi({ description: "Decimal degrees, as asked about.", example: 72.8258 }),
    temperatureMax: measurement("Highest air temperature 2 m above ground, °C", 33.4),
    temperatureMin: measurement("Lowest air temperature 2 m above ground, °C", 26.1),
    precipitationSum: measurement("Rain, showers and snow over the day, mm", 0),
    windSpeedMax: measurement("Strongest wind 10 m above ground, km/h", 17.6),
  })
  .openapi("WeatherResult");

export const REASONS = ["LOCATION_NOT_FOUND", "MISSING_COORDINATES", "UNSUPPORTED_DATE"] as const;

export const fixtureWeatherSchema = z
  .object({
    fixtureId: z.string().openapi({ example: SAMPLE.fixtureId }),
    date: z.string().openapi({ description: "The fixture's start date (YYYY-MM-DD).", example: "2024-04-07" }),
    availability: z.enum(["available", "unavailable"]),
    venue: z
      .object({ name: z.string(), city: z.string().nullable() })
      .nullable()
      .openapi({
        description: "The fixture's venue; null when it has none.",
        example: { name: "Wankhede Stadium", city: "Mumbai" },
      }),
    weather: nullableRef(weatherResultSchema, "The day's weather; null when unavailable."),
    reason: z.enum(REASONS).optional().openapi({
      description:
        "Only when unavailable: `UNSUPPORTED_DATE` (the date is outside both provider ranges), `LOCATION_NOT_FOUND` (no venue, or none of its lookups found it), `MISSING_COORDINATES` (the venue holds one coordinate without the other; also what earlier versions answered for a venue without coordinates, so clients may still meet it).",
      example: "LOCATION_NOT_FOUND",
    }),
  })
  .openapi("FixtureWeather");

/** CC BY 4.0 asks for credit and the licence beside the data (docs/weather.md, "Attribution"). */
export const ATTRIBUTION_LINK =
  '<https://open-meteo.com/>; rel="via"; title="Weather data by Open-Meteo.com", <https://creativecommons.org/licenses/by/4.0/>; rel="license"';

export const attributionHeader = {
  Link: {
    description:
      "Attribution the weather data's licence (CC BY 4.0) asks for: its source, Open-Meteo.com (`rel=via`), and the licence (`rel=license`). Show it next to the data.",
    schema: { type: "string" as const, example: ATTRIBUTION_LINK },
  },
};
