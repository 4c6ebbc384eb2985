import { addDays, type UtcDate } from "./dates.js";
import type { UsageRow } from "./queries.js";
import type { UsageWindow } from "./window.js";

/** A date's requests by status class (`2xx`, `4xx`, …). */
export type DailyUsage = { date: UtcDate; requests: Readonly<Record<string, number>> };

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
export function endpointUsage(rows: readonly UsageRow[]): { endpoint: string; requests: number; refused: number }[] {
  const totals = new Map<string, { endpoint: string; requests: number; refused: number }>();
  for (const row of rows) {
    const total = totals.get(row.endpoint) ?? { endpoint: row.endpoint, requests: 0, refused: 0 };
    total.requests += row.requests;
    if (row.statusClass >= "4") total.refused += row.requests;
    totals.set(row.endpoint, total);
  }
  return [...totals.values()].sort((a, b) => b.requests - a.requests || (a.endpoint < b.endpoint ? -1 : 1));
}
