/**
 * Which of the provider's APIs holds a date's weather (the specification's "Weather date
 * range"): the forecast API from 92 days ago to 16 days ahead, the archive from 1940-01-01
 * up to the day before that window, nothing otherwise. Days are UTC calendar days. Pure.
 */
export type WeatherSource = "forecast" | "archive";

export const FORECAST_PAST_DAYS = 92;
export const FORECAST_FUTURE_DAYS = 16;
export const ARCHIVE_FIRST_DATE = "1940-01-01";

const DAY_MS = 86_400_000;

/** `date` (YYYY-MM-DD) moved by `days`, as YYYY-MM-DD. */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The UTC calendar day of `now`. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The API that answers for `date` as of `today`, or null when neither does. */
export function weatherSource(date: string, today: string): WeatherSource | null {
  if (date > addDays(today, FORECAST_FUTURE_DAYS)) return null;
  if (date >= addDays(today, -FORECAST_PAST_DAYS)) return "forecast";
  if (date >= ARCHIVE_FIRST_DATE) return "archive";
  return null;
}
