import { ApiError } from "../http/errors.js";
import { addDays, type UtcDate } from "./dates.js";

/** The dates a usage read covers when the caller names none: the latest 7, today's included. */
export const DEFAULT_USAGE_DAYS = 7;
/** The most dates one usage read may cover (spec, Limits). */
export const MAX_USAGE_DAYS = 31;

/** The inclusive range of UTC dates a usage read covers. */
export type UsageWindow = { from: UtcDate; to: UtcDate };

/**
 * The window a usage read covers. One bound alone is the 7 dates from it or to it (`from`
 * alone: `from` and the six after; `to` alone: the six before and `to`); no bound is the
 * latest 7, today's included. Both bounds are taken as given, at most 31 dates, refused
 * (400, naming `to`) when the window ends before it starts or spans more.
 */
export function usageWindow(query: { from?: UtcDate; to?: UtcDate }, today: UtcDate): UsageWindow {
  const span = DEFAULT_USAGE_DAYS - 1;
  if (query.from === undefined) {
    const to = query.to ?? today;
    return { from: addDays(to, -span), to };
  }
  const { from } = query;
  const to = query.to ?? addDays(from, span);
  if (from > to) throw invalidWindow(`The window starts (${from}) after it ends (${to})`);
  if (addDays(from, MAX_USAGE_DAYS - 1) < to)
    throw invalidWindow(`The window ${from} to ${to} spans more than ${MAX_USAGE_DAYS} dates`);
  return { from, to };
}

const invalidWindow = (message: string) =>
  new ApiError("VALIDATION_FAILED", "The query is invalid", [{ code: "INVALID_FIELD", message, field: "to" }]);
