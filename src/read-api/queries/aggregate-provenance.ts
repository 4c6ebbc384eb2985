import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import type { Account } from "../../../streams/account-state.js";
import { CorrectionForbidden } from "../../commands/submissions/errors.js";
import type { Sql } from "../../db/database.js";
import { ApiError, notFound } from "../../http/errors.js";
import { keysetPage, type Pagination } from "../../http/pagination.js";
import { mayCorrectAny, mayCorrectInCompetition } from "../../submissions/access.js";
import { fixtureVersions } from "./fixtures.js";
import { parseAggregateStatisticId } from "./player-statistics.js";
import { type Contributor, contributors } from "./statistic-provenance.js";

/**
 * Derived-statistic provenance of a participant aggregate (a season's, a competition's or
 * a career's figures) and so of a leaderboard row, which is one figure of one: the
 * deliveries its batting, bowling or fielding figures are computed from, across fixtures,
 * each with the fixture version it is read at and every revision with its source.
 */

export const AGGREGATE_PARTS = ["batting", "bowling", "fielding"] as const;
export type AggregatePart = (typeof AGGREGATE_PARTS)[number];

export type AggregateContributor = Contributor & { fixtureId: string; fixtureVersion: number };

export type AggregateProvenance = {
  participantId: string;
  statisticId: string;
  part: AggregatePart;
  /** A fingerprint of the trace (its deliveries and their revisions): a cursor holds to it. */
  traceVersion: string;
  count: number;
  data: AggregateContributor[];
  pagination: Pagination;
};

type TraceRow = { event_id: string; fixture_id: string; revision: number };

/** A page continues after an index of the trace of one set of fixture versions. */
const cursorKey = z.tuple([z.string().regex(/^[0-9a-f]{16}$/), z.number().int().min(0)]);

/**
 * Who may trace an aggregate: an administrator, or a submitter whose scope holds the
 * competition (a season's, or the competition itself); a career spans competitions, so only
 * an administrator traces one.
 */
async function mayTrace(sql: Sql, account: Account, scope: { type: string; id: string }) {
  mayCorrectAny(account);
  if (scope.type === "career") {
    if (account.role !== "admin")
      throw new CorrectionForbidden(account.accountId, "A career spans competitions: only an administrator traces it");
    return;
  }
  const competitionId =
    scope.type === "competition"
      ? scope.id
      : (await sql<{ competition_id: string }[]>`select competition_id from season where season_id = ${scope.id}`)[0]
          ?.competition_id;
  if (competitionId !== undefined) mayCorrectInCompetition(account, competitionId);
}

/**
 * Every delivery of the part, in the scope's fixtures by date and in occurrence order, super
 * overs aside (they never count): batting, those the participant faced or was out on;
 * bowling, those they bowled; fielding, those they took part in as a fielder.
 */
function traceRows(
  sql: Sql,
  participantId: string,
  scope: { type: string; id: string },
  part: AggregatePart,
  limit: number,
) {
  const inScope =
    scope.type === "season"
      ? sql`and f.season_id = ${scope.id}`
      : scope.type === "competition"
        ? sql`and f.competition_id = ${scope.id}`
        : sql``;
  const outOn = sql`exists (select 1 from jsonb_array_elements(d.wickets) w where w->>'playerOutId' = ${participantId})`;
  const inPart =
    part === "batting"
      ? sql`and (d.striker_id = ${participantId} or ${outOn})`
      : part === "bowling"
        ? sql`and d.bowler_id = ${participantId}`
        : sql`and exists (
            select 1 from jsonb_array_elements(d.wickets) w, jsonb_array_elements(w->'fielders') x
            where x->>'participantId' = ${participantId})`;
  return sql<TraceRow[]>`
    select d.event_id::text, d.fixture_id, d.revision
    from appearance a
    join fixture f on f.fixture_id = a.fixture_id ${inScope}
    join delivery d on d.fixture_id = a.fixture_id and ${participantId} = any(d.participant_ids) ${inPart}
    join innings i on i.fixture_id = d.fixture_id and i.innings_id = d.innings_id and not i.super_over
    where a.participant_id = ${participantId}
    order by f.start_date, d.fixture_id, d.innings_ordinal, d.sequence_number
    limit ${limit}`;
}

/** What a trace is: which deliveries, in which order, at which revisions. */
const fingerprint = (trace: readonly TraceRow[]) =>
  createHash("sha256")
    .update(trace.map((r) => `${r.event_id}:${r.revision}`).join("\n"))
    .digest("hex")
    .slice(0, 16);

/**
 * One page of an aggregate's provenance as `account` may read it. The trace is one read of
 * the deliveries read model; its cursor holds a fingerprint of the trace (its deliveries and
 * their revisions), and a cursor of another trace is refused (409 TRACE_CHANGED), so the
 * pages of one answer never mix versions. A page whose revisions the history does not show
 * yet (its read model trails the deliveries') is refused the same way: repeat the request.
 */
export async function readableAggregateProvenance(
  sql: Sql,
  account: Account,
  request: { participantId: string; statisticId: string; part: AggregatePart; limit?: number; cursor?: string },
  traceLimit: number,
): Promise<AggregateProvenance> {
  const { participantId, statisticId, part } = request;
  const scope = parseAggregateStatisticId(statisticId);
  if (!scope) throw notFound("statistic of this participant");
  await mayTrace(sql, account, scope);
  const [aggregate] = await sql`
    select 1 from player_aggregate
    where participant_id = ${participantId} and scope_type = ${scope.type} and scope_id = ${scope.type === "career" ? "" : scope.id}`;
  if (!aggregate) throw notFound("statistic of this participant");

  const trace = await traceRows(sql, participantId, scope, part, traceLimit + 1);
  if (trace.length > traceLimit)
    throw new ApiError("EXPORT_TOO_LARGE", `More than ${traceLimit} contributing deliveries: narrow the scope`);
  const versions = await fixtureVersions(sql, [...new Set(trace.map((r) => r.fixture_id))]);
  const traceVersion = fingerprint(trace);
  const page = await keysetPage({
    scope: { operation: "getAggregateProvenance", inputs: { participantId, statisticId, part } },
    limit: request.limit,
    cursor: request.cursor,
    key: cursorKey,
    fetch: async (after, take) => {
      if (after && after[0] !== traceVersion)
        throw new ApiError("TRACE_CHANGED", "The trace changed since the first page; start again without the cursor");
      const from = after ? after[1] + 1 : 0;
      const rows = trace.slice(from, from + take);
      const found = await contributors(
        sql,
        rows.map((r) => r.event_id),
      );
      if (found.some((item, i) => item.currentRevision !== rows[i]?.revision))
        throw new ApiError("TRACE_CHANGED", "A delivery of the page changed while it was read; repeat the request");
      return found.map((item, i) => {
        const fixtureId = rows[i]?.fixture_id as string;
        return {
          item: { ...item, fixtureId, fixtureVersion: versions.get(fixtureId) ?? 0 },
          key: [traceVersion, from + i] as [string, number],
        };
      });
    },
  });
  return { participantId, statisticId, part, traceVersion, count: trace.length, ...page };
}
