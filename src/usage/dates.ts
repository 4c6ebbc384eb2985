import { FIRST_DATE, LAST_DATE } from "../http/dates.js";

/**
 * UTC calendar dates as `YYYY-MM-DD` strings: the unit usage is counted, kept and asked for
 * in. Such strings sort in date order, so comparing them compares the dates.
 */
export type UtcDate = string;

const DAY_MS = 86_400_000;

/** The UTC date `at` falls on. */
export const utcDate = (at: Date): UtcDate => at.toISOString().slice(0, 10);

/** The date `days` after `date` (before it when negative), held within FIRST_DATE and LAST_DATE. */
export function addDays(date: UtcDate, days: number): UtcDate {
  const at = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS;
  if (at < Date.parse(`${FIRST_DATE}T00:00:00Z`)) return FIRST_DATE;
  if (at > Date.parse(`${LAST_DATE}T00:00:00Z`)) return LAST_DATE;
  return utcDate(new Date(at));
}
