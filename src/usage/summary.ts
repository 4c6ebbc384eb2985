import type { Sql } from "../db/database.js";
import { addDays, type UtcDate } from "./dates.js";
import { type UsageRow, usageRows } from "./queries.js";
import { MAX_USAGE_DAYS, type UsageWindow } from "./window.js";

/** A date's requests by status class (`2xx`, `4xx`, …). */
export type DailyUsage = { date: UtcDate; requests: Readonly<Record<string, number>> };

/** An endpoint's requests over a window, and how many of them were refused (4xx and 5xx). */
export type EndpointUsage = { endpoint: string; requests: number; refused: number };

/** A date's requests over every status class. */
export const requestsOn = (day: DailyUsage) => Object.values(day.requests).reduce((sum, n) => sum + n, 0);

/** Most rows a summary reads: 31 dates of every endpoint in every status class fit many times over. */
const SUMMARISED_ROWS = 20_000;

/**
 * A consumer's usage over every kept date to `today` (the widest window the API answers),
 * by date and by endpoint, from the rows the API's usage read pages through. `complete` is
 * false when there were more rows than a summary reads: the oldest dates may then be short.
 */
export async function usageSummary(sql: Sql, consumerId: number, today: UtcDate) {
  const window = { from: addDays(today, 1 - MAX_USAGE_DAYS), to: today };
  const rows = await usageRows(sql, { consumerId, ...window, limit: SUMMARISED_ROWS + 1 });
  const summed = rows.slice(0, SUMMARISED_ROWS);
  return {
    days: dailyUsage(summed, window),
    endpoints: endpointUsage(summed),
    complete: rows.length <= SUMMARISED_ROWS,
  };
}

/** Every date of the window, oldest first, with its requests by status class: a date without any holds none. */
export function dailyUsage(rows: readonly UsageRow[], { from, to }: UsageWindow): DailyUsage[] {
  const byDate = new Map<UtcDate, Record<string, number>>();
  for (const row of rows) {
    const classes = byDate.get(row.date) ?? {};
    classes[row.statusClass] = (classes[row.statusClass] ?? 0) + row.requests;
    byDate.set(row.date, classes);
  }
  const days: DailyUsage[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    days.push({ date, requests: byDate.get(date) ?? {} });
    if (date === to) break;
  }
  return days;
}

/** Each endpoint's requests over the rows, busiest first (endpoint order breaking ties), with its refusals (4xx and 5xx). */
export function endpointUsage(rows: readonly UsageRow[]): EndpointUsage[] {
  const totals = new Map<string, EndpointUsage>();
  for (const row of rows) {
    const total = totals.get(row.endpoint) ?? { endpoint: row.endpoint, requests: 0, refused: 0 };
    total.requests += row.requests;
    if (row.statusClass >= "4") total.refused += row.requests;
    totals.set(row.endpoint, total);
  }
  return [...totals.values()].sort((a, b) => b.requests - a.requests || (a.endpoint < b.endpoint ? -1 : 1));
}
