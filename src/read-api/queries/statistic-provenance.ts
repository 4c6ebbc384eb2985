import { z } from "@hono/zod-openapi";
import type { Account } from "../../../streams/account-state.js";
import type { Sql } from "../../db/database.js";
import { ApiError, notFound } from "../../http/errors.js";
import { keysetPage, type Pagination } from "../../http/pagination.js";
import { mayCorrectAny, mayCorrectInCompetition } from "../../submissions/access.js";
import { type RevisionRow, revisionRows } from "./delivery-history.js";
import { type RevisionProvenance, revisionOf } from "./event-provenance.js";
import { findStatistic, loadFixtureStatistics } from "./fixture-statistics.js";
import { fixtureVersion } from "./fixtures.js";
import { stableTrace, traceOf } from "./statistic-trace.js";
import { eventProvenancePath } from "./submission-provenance.js";

/**
 * Derived-statistic provenance: the deliveries a fixture statistic is computed from (its
 * contributor trace, src/read-api/queries/statistic-trace.ts), each with every revision it
 * went through and where each came from, as of one fixture version. The states themselves
 * are one link away (the event provenance), which keeps a page of a long trace small.
 */

/** A revision as the event provenance gives it, but for the states: those are one link away. */
export type ContributorRevision = Omit<RevisionProvenance, "previousState" | "resultingState">;

export type Contributor = {
  eventId: string;
  /** The revision the statistic was computed from. */
  currentRevision: number;
  revisions: ContributorRevision[];
  provenance: string;
};

export type StatisticProvenance = {
  fixtureId: string;
  statisticId: string;
  fixtureVersion: number;
  /** Contributing deliveries in all pages. */
  count: number;
  data: Contributor[];
  pagination: Pagination;
};

/** A page continues after an index of the trace of one fixture version. */
const cursorKey = z.tuple([z.number().int().min(0), z.number().int().min(0)]);

async function fixtureCompetition(sql: Sql, fixtureId: string): Promise<string | undefined> {
  const [row] = await sql<{ competition_id: string }[]>`
    select competition_id from fixture where fixture_id = ${fixtureId}`;
  return row?.competition_id;
}

/** The contributors' revisions, each delivery's oldest first, in the order of `eventIds`. */
export async function contributors(sql: Sql, eventIds: string[]): Promise<Contributor[]> {
  const byEvent = new Map<string, RevisionRow[]>();
  for (const row of await revisionRows(sql, eventIds)) {
    const revisions = byEvent.get(row.event_id) ?? [];
    revisions.push(row);
    byEvent.set(row.event_id, revisions);
  }
  return eventIds.map((eventId) => {
    const revisions = byEvent.get(eventId) ?? [];
    return {
      eventId,
      currentRevision: revisions.at(-1)?.revision ?? 1,
      revisions: revisions.map(revisionOf),
      provenance: eventProvenancePath(eventId),
    };
  });
}

/**
 * One page of a fixture statistic's provenance as `account` may read it (an administrator,
 * or a submitter in the fixture's competition). Every page is read between two reads of the
 * fixture version (409 TRACE_CHANGED when it moved), and a cursor issued at another version
 * is refused the same way: pages of one answer never mix versions.
 */
export async function readableStatisticProvenance(
  sql: Sql,
  account: Account,
  request: { fixtureId: string; statisticId: string; limit?: number; cursor?: string },
  traceLimit: number,
): Promise<StatisticProvenance> {
  const { fixtureId, statisticId } = request;
  mayCorrectAny(account);
  const competitionId = await fixtureCompetition(sql, fixtureId);
  if (competitionId === undefined) throw notFound("fixture");
  mayCorrectInCompetition(account, competitionId);
  const { version, value } = await stableTrace(
    () => fixtureVersion(sql, fixtureId),
    async (version) => {
      const loaded = await loadFixtureStatistics(sql, fixtureId);
      if (!loaded?.document) throw new ApiError("NOT_FOUND", "The fixture's statistics are not derived yet");
      const located = findStatistic(loaded.document, statisticId);
      if (!located) throw notFound("statistic of this fixture");
      const trace = (await traceOf(sql, fixtureId, located, traceLimit)).map((r) => r.event_id);
      const page = await keysetPage({
        scope: { operation: "getStatisticProvenance", inputs: { fixtureId, statisticId } },
        limit: request.limit,
        cursor: request.cursor,
        key: cursorKey,
        fetch: async (after, take) => {
          if (after && after[0] !== version)
            throw new ApiError(
              "TRACE_CHANGED",
              "The fixture changed since the first page; start again without the cursor",
            );
          const from = after ? after[1] + 1 : 0;
          const ids = trace.slice(from, from + take);
          const items = await contributors(sql, ids);
          return items.map((item, i) => ({ item, key: [version, from + i] as [number, number] }));
        },
      });
      return { count: trace.length, ...page };
    },
  );
  return { fixtureId, statisticId, fixtureVersion: version, ...value };
}
