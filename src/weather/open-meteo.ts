import { z } from "zod";
import { storable } from "../../streams/shared.js";

/**
 * The shapes of Open-Meteo's answers this service relies on (reference: Open-Meteo's
 * OpenAPI documents and documented behaviour; docs/weather.md). Anything else is an answer
 * the service cannot trust: 502 UPSTREAM_ERROR.
 */

/** The daily variables asked for, and the units each must come in. */
export const DAILY_VARIABLES = {
  temperature_2m_max: "°C",
  temperature_2m_min: "°C",
  precipitation_sum: "mm",
  wind_speed_10m_max: "km/h",
} as const;

type DailyVariable = keyof typeof DAILY_VARIABLES;
const VARIABLES = Object.keys(DAILY_VARIABLES) as DailyVariable[];

/** A missing measurement is a null in its place (open-meteo#2122); every place must be there. */
const values = z.array(z.number().nullable());

const dailyAnswerSchema = z
  .object({
    daily: z.object({
      time: z.array(z.iso.date()),
      temperature_2m_max: values,
      temperature_2m_min: values,
      precipitation_sum: values,
      wind_speed_10m_max: values,
    }),
    daily_units: z.record(z.string(), z.string()).optional(),
  })
  .superRefine(({ daily, daily_units }, ctx) => {
    for (const variable of VARIABLES) {
      if (daily[variable].length !== daily.time.length)
        ctx.addIssue({ code: "custom", path: ["daily", variable], message: "not one value per day" });
      const unit = daily_units?.[variable];
      if (unit !== undefined && unit !== DAILY_VARIABLES[variable])
        ctx.addIssue({ code: "custom", path: ["daily_units", variable], message: `in ${unit}` });
    }
  });

/** One day's values, numbers or null, in °C, mm and km/h. */
export type DailyWeather = {
  temperatureMax: number | null;
  temperatureMin: number | null;
  precipitationSum: number | null;
  windSpeedMax: number | null;
};

/** The day's values from a forecast or archive answer for that one day; undefined when it is not that. */
export function dailyWeather(body: unknown, date: string): DailyWeather | undefined {
  const parsed = dailyAnswerSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { daily } = parsed.data;
  if (daily.time.length !== 1 || daily.time[0] !== date) return undefined;
  return {
    temperatureMax: daily.temperature_2m_max[0] ?? null,
    temperatureMin: daily.temperature_2m_min[0] ?? null,
    precipitationSum: daily.precipitation_sum[0] ?? null,
    windSpeedMax: daily.wind_speed_10m_max[0] ?? null,
  };
}

/** A day the archive holds with every value is final: it never changes again. */
export const isComplete = (day: DailyWeather) => Object.values(day).every((value) => value !== null);

/** Text a place is kept under (VenueLocated): what the database can hold. */
const placeText = z.string().min(1).max(200).refine(storable);

const placeSchema = z.object({
  id: z.number().int(),
  name: placeText,
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  // "Empty fields are not returned": everything else is optional.
  country: placeText.optional(),
  admin1: z.string().optional(),
  admin2: z.string().optional(),
  admin3: z.string().optional(),
  admin4: z.string().optional(),
});

/** No match is an answer without `results` (geocoding-api#9). */
const searchAnswerSchema = z.object({ results: z.array(placeSchema).optional() });

export type Place = z.infer<typeof placeSchema>;

/** The places of a geocoding answer, best match first; undefined when it is not one. */
export function places(body: unknown): Place[] | undefined {
  const parsed = searchAnswerSchema.safeParse(body);
  return parsed.success ? (parsed.data.results ?? []) : undefined;
}
