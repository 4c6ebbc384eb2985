import type { Sql } from "../db/database.js";
import type { Logger } from "../http/logging.js";
import { addDays, utcDate } from "./dates.js";
import { MAX_USAGE_DAYS } from "./window.js";

/** Usage is kept for 31 UTC dates, today's included (spec, Limits): exactly the widest window a read may ask for. */
const USAGE_RETENTION_DAYS = MAX_USAGE_DAYS;
const HOUR_MS = 3_600_000;

/** Deletes the usage of dates before the retained ones; returns how many rows went. */
export async function deleteExpiredUsage(sql: Sql, now: Date): Promise<number> {
  const oldestKept = addDays(utcDate(now), -(USAGE_RETENTION_DAYS - 1));
  const deleted = await sql`delete from api_usage where usage_date < ${oldestKept}::date`;
  return deleted.count;
}

/**
 * Runs the retention cleanup now and then hourly, so expired dates go within an hour of
 * midnight UTC, without keeping the process alive. Every instance may run it: deleting what
 * another already deleted does nothing. Returns the function that stops it.
 */
export function scheduleUsageCleanup(sql: Sql, logger: Logger, everyMs = HOUR_MS): () => void {
  const run = () =>
    deleteExpiredUsage(sql, new Date()).then(
      (rows) => rows > 0 && logger.info({ rows }, "expired usage telemetry deleted"),
      (error: unknown) =>
        logger.warn({ err: error }, "usage retention cleanup failed; it runs again at the next interval"),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
