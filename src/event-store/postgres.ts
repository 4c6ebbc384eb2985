import { EventEmitter } from "node:events";
import type postgres from "postgres";
import type { Sql, Tx } from "../db/database.js";
import {
  type AppendResult,
  DuplicateEventId,
  type EventStore,
  type ExpectedRevision,
  expectedAsNumber,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedRevision,
} from "./port.js";

type EventRow = {
  global_position: string;
  transaction_id: string;
  stream_id: string;
  stream_revision: string;
  event_id: string;
  event_type: string;
  data: unknown;
  metadata: NewEvent["metadata"];
  recorded_at: Date;
};

const UNIQUE_VIOLATION = "23505";
/** The positions between two commits' first events (007-event-commits.sql): the most one append holds. */
const COMMIT_SPAN = 1_048_576;

/**
 * Event store on append-only Postgres tables (also embedded PGlite): a row of `commits` per
 * append holding its events, and each event id in `event_ids`. Appends lock the
 * stream's row in `streams`, so the expected-revision check and the write are one atomic step.
 * Catch-up reads follow the transaction-id scheme described in 001-event-store.sql.
 */
export class PostgresEventStore implements EventStore {
  readonly adapter = "postgres";
  private readonly appended = new EventEmitter();

  constructor(private readonly sql: Sql) {
    this.appended.setMaxListeners(0);
  }

  async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError("append needs at least one event");
    if (events.length > COMMIT_SPAN) throw new RangeError(`an append holds at most ${COMMIT_SPAN} events`);
    try {
      const result = await this.sql.begin((tx) => this.appendIn(tx, streamId, events, expected));
      this.appended.emit("append");
      return result;
    } catch (error) {
      // A concurrent retry of the same append may have won the race for the revision or the ids.
      if (error instanceof WrongExpectedRevision || (error as { code?: string }).code === UNIQUE_VIOLATION) {
        const replay = await this.previousAppend(this.sql, streamId, events);
        if (replay) return replay;
      }
      throw error;
    }
  }

  private async appendIn(tx: Tx, streamId: string, events: readonly NewEvent[], expected: ExpectedRevision) {
    const replay = await this.previousAppend(tx, streamId, events);
    if (replay) return replay;
    const before = await this.claimRevisions(tx, streamId, events.length, expected);
    // Ids as the uuid type spells them (lower case), as a row an event used to answer them.
    const payload = events.map((e) => ({ id: e.id.toLowerCase(), type: e.type, data: e.data, metadata: e.metadata }));
    const [row] = await tx<{ position: string; xid: string }[]>`
      with committed as (
        insert into commits (stream_id, first_revision, event_count, events)
        values (${streamId}, ${before + 1}, ${events.length}, ${tx.json(payload as postgres.JSONValue)})
        returning first_position, last_position, transaction_id
      ), ids as (
        insert into event_ids (event_id, position)
        select id, committed.first_position + ordinality - 1
        from committed, unnest(${payload.map((e) => e.id)}::uuid[]) with ordinality as id
      )
      select last_position::text as position, transaction_id::text as xid from committed`;
    if (!row) throw new Error("append wrote no rows");
    return {
      nextRevision: before + events.length,
      position: { commit: BigInt(row.xid), index: BigInt(row.position) },
    };
  }

  /** Moves the stream's revision forward by `count`, returning the revision before, or throws on a mismatch. */
  private async claimRevisions(tx: Tx, streamId: string, count: number, expected: ExpectedRevision) {
    const want = expectedAsNumber(expected);
    const rows =
      want === undefined
        ? await tx<{ revision: string }[]>`
            insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
            on conflict (stream_id) do update set revision = streams.revision + ${count}
            returning revision`
        : want === -1
          ? await tx<{ revision: string }[]>`
              insert into streams (stream_id, revision) values (${streamId}, ${count - 1})
              on conflict (stream_id) do nothing returning revision`
          : await tx<{ revision: string }[]>`
              update streams set revision = revision + ${count}
              where stream_id = ${streamId} and revision = ${want} returning revision`;
    const [row] = rows;
    if (!row) throw new WrongExpectedRevision(streamId, expected, await this.currentRevision(tx, streamId));
    return Number(row.revision) - count;
  }

  private async currentRevision(sql: Sql | Tx, streamId: string): Promise<number> {
    const [row] = await sql<{ revision: string }[]>`select revision from streams where stream_id = ${streamId}`;
    return row ? Number(row.revision) : -1;
  }

  /**
   * When every event id is already stored, consecutively and in this stream, the append is a
   * retry: answer what the first attempt answered. Some but not all stored is a conflict.
   */
  private async previousAppend(sql: Sql | Tx, streamId: string, events: readonly NewEvent[]) {
    const ids = events.map((e) => e.id.toLowerCase());
    const rows = await sql<
      { event_id: string; stream_id: string; stream_revision: string; position: string; xid: string }[]
    >`
      select i.event_id::text, c.stream_id, c.first_revision + (i.position - c.first_position) as stream_revision,
             i.position::text, c.transaction_id::text as xid
      from event_ids i
      cross join lateral (
        select stream_id, first_revision, first_position, transaction_id from commits
        where first_position <= i.position order by first_position desc limit 1) c
      where i.event_id = any(${ids}::uuid[])`;
    if (rows.length === 0) return undefined;
    const byId = new Map(rows.map((r) => [r.event_id, r]));
    const stored = ids.map((id) => byId.get(id));
    const first = stored[0];
    const isRetry =
      first !== undefined &&
      stored.every(
        (r, i) => r?.stream_id === streamId && Number(r.stream_revision) === Number(first.stream_revision) + i,
      );
    if (!isRetry) throw new DuplicateEventId(rows.map((r) => r.event_id));
    const last = rows.reduce((a, b) => (BigInt(a.position) > BigInt(b.position) ? a : b));
    return {
      nextRevision: Number(first.stream_revision) + ids.length - 1,
      position: { commit: BigInt(last.xid), index: BigInt(last.position) },
    };
  }

  async readStream(streamId: string, options: { fromRevision?: number } = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0;
    const rows = await this.sql<EventRow[]>`
      select ${eventColumns(this.sql)}
      from commits c cross join lateral jsonb_array_elements(c.events) with ordinality as e (event, ordinality)
      where c.stream_id = ${streamId} and c.first_revision + c.event_count > ${from}
        and c.first_revision + e.ordinality - 1 >= ${from}
      order by c.first_revision, e.ordinality`;
    return rows.map(toRecorded);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const [commit, index] = [after.commit.toString(), after.index.toString()];
    const rows = await this.sql<EventRow[]>`
      select ${eventColumns(this.sql)}
      from commits c cross join lateral jsonb_array_elements(c.events) with ordinality as e (event, ordinality)
      where (c.transaction_id, c.last_position) > (${commit}::xid8, ${index}::bigint)
        and c.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
        and (c.transaction_id, c.first_position + e.ordinality - 1) > (${commit}::xid8, ${index}::bigint)
      order by c.transaction_id, c.last_position, e.ordinality
      limit ${limit}`;
    return rows.map(toRecorded);
  }

  async head(): Promise<Position> {
    const [row] = await this.sql<{ xid: string; position: string }[]>`
      select transaction_id::text as xid, last_position::text as position from commits
      order by transaction_id desc, last_position desc limit 1`;
    return row ? { commit: BigInt(row.xid), index: BigInt(row.position) } : START;
  }

  async distance(after: Position, upTo: Position): Promise<number> {
    const from = [after.commit.toString(), after.index.toString()] as const;
    const to = [upTo.commit.toString(), upTo.index.toString()] as const;
    // The commits that overlap (after, upTo], each counted from the first of its events inside.
    const [row] = await this.sql<{ events: string }[]>`
      select coalesce(sum(
        case when c.transaction_id = ${to[0]}::xid8 then least(c.last_position, ${to[1]}::bigint) else c.last_position end
        - case when c.transaction_id = ${from[0]}::xid8 then greatest(c.first_position, ${from[1]}::bigint + 1) else c.first_position end
        + 1), 0)::text as events
      from commits c
      where (c.transaction_id, c.last_position) > (${from[0]}::xid8, ${from[1]}::bigint)
        and (c.transaction_id, c.first_position) <= (${to[0]}::xid8, ${to[1]}::bigint)`;
    return Math.max(0, Number(row?.events ?? 0));
  }

  onAppend(listener: () => void): () => void {
    this.appended.on("append", listener);
    return () => this.appended.off("append", listener);
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
  }
}

/** An event of the commit `c`, unfolded as `e (event, ordinality)`, as an `EventRow`. */
const eventColumns = (sql: Sql) => sql`
  (c.first_position + e.ordinality - 1)::text as global_position, c.transaction_id::text, c.stream_id,
  (c.first_revision + e.ordinality - 1)::text as stream_revision, e.event ->> 'id' as event_id,
  e.event ->> 'type' as event_type, e.event -> 'data' as data, e.event -> 'metadata' as metadata, c.recorded_at`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.event_type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: Number(row.stream_revision),
    position: { commit: BigInt(row.transaction_id), index: BigInt(row.global_position) },
    recordedAt: row.recorded_at,
  };
}
