import type postgres from "postgres";
import { accountStream } from "../../streams/account.js";
import type { Sql, Tx } from "../db/database.js";
import { isSealed, seal } from "./cipher.js";
import { ERASING_TYPES, mapPersonal, ownerOf, PERSONAL_FIELDS, placeOf } from "./fields.js";
import { provideKeys } from "./keys.js";

const LOCK = 7_405_311_002;
/** Every account stream id starts so. */
const ACCOUNT_STREAMS = accountStream("");

export type SealReport = {
  /** Events whose plain personal fields were sealed under their account's key. */
  sealed: number;
  /** Events of tombstoned accounts whose plain personal fields were set to null. */
  erased: number;
  /** Keys of tombstoned accounts that were still there, now destroyed. */
  keysDestroyed: number;
};

/** `commit` and `index`: where the event stands, its commit's first position and its index in the commit's array. */
type PlainEvent = { commit: string; index: number; id: string; stream_id: string; type: string; data: unknown };

/**
 * Brings the events of the postgres adapter in line with erasure: personal fields that
 * events appended before sealing existed hold in plain text are sealed in place, or set to
 * null where the account was tombstoned already, and a key a tombstone left behind (the
 * process stopped between the append and the key's destruction) is destroyed. This is the
 * one sanctioned rewrite of the append-only ledger (docs/event-store.md). Idempotent; runs at
 * every start before the projectors, one process at a time, and touches only account streams.
 */
export async function sealExistingEvents(sql: Sql): Promise<SealReport> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK})`;
    const plain = await plainEvents(tx);
    const erased = await tombstoned(
      tx,
      plain.map((e) => e.stream_id),
    );
    const keys = await provideKeys(
      tx,
      plain.filter((e) => !erased.has(e.stream_id)).map((e) => ownerOf(e.stream_id)),
    );
    const rewritten = plain.map((e) => {
      const key = keys.get(ownerOf(e.stream_id));
      const change = (value: unknown, field: string) =>
        !key ? null : isSealed(value) ? value : seal(key, value, placeOf(e.id, field));
      return { commit: e.commit, index: e.index, data: mapPersonal(e.type, e.data, change) };
    });
    // One event at a time: several may share a commit, whose array each update rewrites.
    for (const { commit, index, data } of rewritten)
      await tx`
        update commits set events = jsonb_set(events, ${[String(index), "data"]}::text[], ${tx.json(data as postgres.JSONValue)})
        where first_position = ${commit}::bigint`;
    const destroyed = await tx`
      delete from personal_data_keys k
      where exists (select from events e
                    where e.stream_id = ${ACCOUNT_STREAMS} || k.account_id and e.event_type = any(${ERASING_TYPES}))
      returning account_id`;
    const erasedCount = plain.filter((e) => erased.has(e.stream_id)).length;
    return { sealed: plain.length - erasedCount, erased: erasedCount, keysDestroyed: destroyed.length };
  });
}

/** Events of account streams with a personal field in plain text (neither null nor an envelope). */
function plainEvents(tx: Tx): Promise<PlainEvent[]> {
  const fields = [...new Set([...PERSONAL_FIELDS.values()].flat())];
  return tx<PlainEvent[]>`
    select c.first_position::text as commit, (e.ordinality - 1)::int as index, e.event ->> 'id' as id, c.stream_id,
           e.event ->> 'type' as type, e.event -> 'data' as data
    from streams s join commits c on c.stream_id = s.stream_id
      cross join lateral jsonb_array_elements(c.events) with ordinality as e (event, ordinality)
    where starts_with(s.stream_id, ${ACCOUNT_STREAMS}) and e.event ->> 'type' = any(${[...PERSONAL_FIELDS.keys()]})
      and exists (select from unnest(${fields}::text[]) f where jsonb_typeof(e.event -> 'data' -> f) not in ('null', 'object'))
    order by c.first_position, e.ordinality`;
}

/** Which of the streams hold an erasing event. */
async function tombstoned(tx: Tx, streamIds: readonly string[]): Promise<Set<string>> {
  const rows = await tx<{ stream_id: string }[]>`
    select distinct stream_id from events
    where stream_id = any(${[...new Set(streamIds)]}::text[]) and event_type = any(${ERASING_TYPES})`;
  return new Set(rows.map((r) => r.stream_id));
}
