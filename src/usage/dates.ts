/**
 * UTC calendar dates as `YYYY-MM-DD` strings: the unit usage is counted, kept and asked for
 * in. Such strings sort in date order, so comparing them compares the dates.
 */
export type UtcDate = string;

const DAY_MS = 86_400_000;

/** The UTC date `at` falls on. */
export const utcDate = (at: Date): UtcDate => at.toISOString().slice(0, 10);

/** The date `days` after `date` (before it when negative). */
export const addDays = (date: UtcDate, days: number): UtcDate =>
  utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS));
