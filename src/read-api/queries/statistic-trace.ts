import type { Sql } from "../../db/database.js";
import { ApiError, notFound } from "../../http/errors.js";
import { isDismissal } from "../../statistics/rules.js";
import { type DeliveryRow, deliveryRows } from "./events.js";
import type { LocatedStatistic } from "./fixture-statistics.js";

/**
 * Contributor traces: the current accepted deliveries (the `delivery` read model) a
 * statistic is derived from.
 *
 * - a whole innings, its batting and bowling cards, total, partnerships and overs: every
 *   delivery of the innings;
 * - extras: the innings' deliveries with an extra; fall of wickets: those with a dismissal;
 * - a batter's line: the deliveries they were on strike for, or were out on;
 * - a bowler's line: the deliveries they bowled;
 * - result and completeness: every delivery of the fixture.
 */

/** Most deliveries one trace reads before it tells which of them contribute; more is refused as too large. */
const MAX_TRACE_SCAN = 100_000;

const hasExtra = (r: DeliveryRow) =>
  [r.extra_wides, r.extra_no_balls, r.extra_byes, r.extra_leg_byes, r.extra_penalty].some((x) => (x ?? 0) > 0);

/** Whether a delivery contributes to the statistic. */
export function contributes({ statistic, innings }: LocatedStatistic, r: DeliveryRow): boolean {
  if (innings === null) return true;
  if (r.innings_id !== innings.inningsId) return false;
  switch (statistic.type) {
    case "extras":
      return hasExtra(r);
    case "fall-of-wickets":
      return r.wickets.some(isDismissal);
    case "batter":
      return (
        r.striker_id === statistic.participantId || r.wickets.some((w) => w.playerOutId === statistic.participantId)
      );
    case "bowler":
      return r.bowler_id === statistic.participantId;
    default:
      return true;
  }
}

/** The deliveries that may contribute to the statistic: its innings (and player), or the whole fixture. */
export async function candidateRows(sql: Sql, fixtureId: string, located: LocatedStatistic): Promise<DeliveryRow[]> {
  const { statistic, innings } = located;
  const participantId =
    statistic.type === "batter" || statistic.type === "bowler" ? statistic.participantId : undefined;
  const rows = await deliveryRows(
    sql,
    fixtureId,
    { inningsId: innings?.inningsId, participantId },
    undefined,
    MAX_TRACE_SCAN + 1,
  );
  if (rows.length > MAX_TRACE_SCAN) throw tooLarge(MAX_TRACE_SCAN);
  return rows;
}

/** The contributing deliveries of one statistic, in occurrence order; 422 over the limit. */
export async function traceOf(
  sql: Sql,
  fixtureId: string,
  located: LocatedStatistic,
  limit: number,
): Promise<DeliveryRow[]> {
  const rows = (await candidateRows(sql, fixtureId, located)).filter((r) => contributes(located, r));
  if (rows.length > limit) throw tooLarge(limit);
  return rows;
}

/**
 * Adds `contributors` to each of the statistics (all of a fixture's, or one and those nested
 * in it); 422 when one has more than `limit`.
 */
export async function withContributors(
  sql: Sql,
  fixtureId: string,
  statistics: readonly LocatedStatistic[],
  limit: number,
): Promise<void> {
  if (statistics.length === 0) return;
  const innings = new Set(statistics.map((s) => s.innings?.inningsId ?? null));
  const [only] = innings;
  const inningsId = innings.size === 1 && only ? only : undefined;
  const rows = await deliveryRows(sql, fixtureId, { inningsId }, undefined, MAX_TRACE_SCAN + 1);
  if (rows.length > MAX_TRACE_SCAN) throw tooLarge(MAX_TRACE_SCAN);
  const byInnings = new Map<string, DeliveryRow[]>();
  for (const r of rows) {
    const list = byInnings.get(r.innings_id);
    if (list) list.push(r);
    else byInnings.set(r.innings_id, [r]);
  }
  for (const located of statistics) {
    const candidates = located.innings ? (byInnings.get(located.innings.inningsId) ?? []) : rows;
    const eventIds = candidates.filter((r) => contributes(located, r)).map((r) => r.event_id);
    if (eventIds.length > limit) throw tooLarge(limit);
    located.statistic.contributors = { count: eventIds.length, eventIds };
  }
}

const tooLarge = (limit: number) =>
  new ApiError(
    "EXPORT_TOO_LARGE",
    `A statistic has more than ${limit} contributing events; ask for a narrower one (an innings' card or a player's line)`,
  );

/**
 * Reads a trace between two reads of the fixture version. An accepted change in between
 * (a delivery, a correction, the result) may have changed the trace half-way through, so
 * the answer is 409 TRACE_CHANGED rather than a mix of two versions; the client retries.
 */
export async function stableTrace<T>(
  readVersion: () => Promise<number | undefined>,
  read: (version: number) => Promise<T>,
): Promise<{ version: number; value: T }> {
  const version = await readVersion();
  if (version === undefined) throw notFound("fixture");
  const value = await read(version);
  const after = await readVersion();
  if (after !== version) {
    throw new ApiError(
      "TRACE_CHANGED",
      `The fixture changed (version ${version} to ${after}) while its trace was read; repeat the request`,
    );
  }
  return { version, value };
}
