import type { MiddlewareHandler } from "hono";
import type { DatabaseWatch } from "../db/availability.js";
import { ALWAYS_ANSWERED } from "../read-api/health.js";
import { ApiError } from "./errors.js";

const LOST = Symbol("the database was lost");

export const databaseUnavailable = () =>
  new ApiError("DATABASE_UNAVAILABLE", "The database cannot be reached just now; retry shortly");

/**
 * Refuses a request at once while the database is away, and ends one that is waiting on it
 * when it goes: a hung server would hold it for good. A write ended this way may still be
 * stored if the server comes back with it; submissions and corrections are safe to retry.
 */
export function databaseAvailability(watch: DatabaseWatch): MiddlewareHandler {
  return async (c, next) => {
    if (ALWAYS_ANSWERED.has(c.req.path)) return next();
    if (!watch.available) throw databaseUnavailable();
    const lost = watch.lost();
    const handled = next();
    try {
      if ((await Promise.race([handled, lost.promise.catch(() => LOST)])) !== LOST) return;
    } finally {
      lost.dispose();
    }
    // The handler runs on; whatever it does after this answer goes nowhere.
    handled.catch(() => {});
    throw databaseUnavailable();
  };
}
