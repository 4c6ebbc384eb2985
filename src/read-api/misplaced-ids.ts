import type { Sql } from "../db/database.js";
import { ApiError } from "../http/errors.js";

/** The kinds of id there are, and the read model each lives in. */
const KINDS = {
  competition: { table: "competition", column: "competition_id" },
  season: { table: "season", column: "season_id" },
  competitor: { table: "competitor", column: "competitor_id" },
  participant: { table: "participant", column: "participant_id" },
  venue: { table: "venue", column: "venue_id" },
  fixture: { table: "fixture", column: "fixture_id" },
  innings: { table: "innings", column: "innings_id" },
} as const;

export type IdKind = keyof typeof KINDS;

/** An id filter of an operation: the kind of id it takes and the id, when one was given. */
export type IdFilterValue = { kind: IdKind; id: string | undefined };

const a = (kind: IdKind) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

/** What `id` names other than a `kind`, if anything (ids are opaque: only the read models know). */
async function otherKindOf(sql: Sql, id: string, kind: IdKind): Promise<IdKind | undefined> {
  const lookups = Object.entries(KINDS)
    .filter(([other]) => other !== kind)
    .map(([other, { table, column }]) => sql`select ${other} as kind from ${sql(table)} where ${sql(column)} = ${id}`);
  const union = lookups.reduce((a, b) => sql`${a} union all ${b}`);
  const [found] = await sql<{ kind: IdKind }[]>`${union} limit 1`;
  return found?.kind;
}

/**
 * An id of the wrong kind in a filter (a season's id as `competitionId`) can only find
 * nothing. Rather than an empty page that reads as "no such fixtures", the answer is 400
 * naming the filter, what the id is, and the operation's filter for that kind if it has one.
 * `filters` holds every id filter of the operation, given or not. Asked only when a page
 * came back empty, so an answer with results costs nothing more; an id of no kind at all
 * stays an empty page, as the filters promise.
 */
export async function refuseMisplacedIds(sql: Sql, filters: Record<string, IdFilterValue>): Promise<void> {
  const misplaced = [];
  for (const [field, { kind, id }] of Object.entries(filters)) {
    if (id === undefined) continue;
    const other = await otherKindOf(sql, id, kind);
    if (!other) continue;
    const instead = Object.entries(filters).find(([, filter]) => filter.kind === other)?.[0];
    misplaced.push({
      code: "WRONG_KIND_OF_ID",
      message: `This is the id of ${a(other)}, not of ${a(kind)}${instead ? `: filter by ${instead}` : ""}`,
      field,
    });
  }
  if (misplaced.length > 0) throw new ApiError("VALIDATION_FAILED", "The query is invalid", misplaced);
}
