import { ApiError } from "../http/errors.js";
import { addDays, type UtcDate } from "./dates.js";

/** The dates a usage read covers when the caller names none: the latest 7, today's included. */
export const DEFAULT_USAGE_DAYS = 7;
/** The most dates one usage read may cover (spec, Limits). */
export const MAX_USAGE_DAYS = 31;

/** The inclusive range of UTC dates a usage read covers. */
export type UsageWindow = { from: UtcDate; to: UtcDate };

/**
 * The window a usage read covers: `to` defaults to today, `from` to six dates before `to`, so
 * no bounds is the latest seven dates, `to` alone the seven ending there and `from` alone
 * `from` through today. A window that ends before it starts or spans more than 31 dates is
 * refused (400), naming `to` when the caller sent it and `from` otherwise: a bound the
 * caller chose.
 */
export function usageWindow(query: { from?: UtcDate; to?: UtcDate }, today: UtcDate): UsageWindow {
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -(DEFAULT_USAGE_DAYS - 1));
  const field = query.to === undefined ? "from" : "to";
  if (from > to) throw invalidWindow(field, `The window starts (${from}) after it ends (${to})`);
  if (addDays(from, MAX_USAGE_DAYS - 1) < to)
    throw invalidWindow(field, `The window ${from} to ${to} spans more than ${MAX_USAGE_DAYS} dates`);
  return { from, to };
}

const invalidWindow = (field: "from" | "to", message: string) =>
  new ApiError("VALIDATION_FAILED", "The query is invalid", [{ code: "INVALID_FIELD", message, field }]);
