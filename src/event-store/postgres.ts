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

/**
 * Event store on an append-only Postgres table (also embedded PGlite). Appends lock the
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
    const payload = events.map((e) => ({ id: e.id, type: e.type, data: e.data, metadata: e.metadata }));
    const [row] = await tx<{ position: string; xid: string }[]>`
      with inserted as (
        insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
        select ${streamId}, ${before} + e.ordinality, (e.value ->> 'id')::uuid, e.value ->> 'type',
               e.value -> 'data', e.value -> 'metadata'
        from jsonb_array_elements(${tx.json(payload as postgres.JSONValue)}) with ordinality as e
        returning global_position
      )
      select max(global_position)::text as position, pg_current_xact_id()::text as xid from inserted`;
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
    const ids = events.map((e) => e.id);
    const rows = await sql<
      { event_id: string; stream_id: string; stream_revision: string; position: string; xid: string }[]
    >`
      select event_id, stream_id, stream_revision, global_position::text as position, transaction_id::text as xid
      from events where event_id = any(${ids}::uuid[])`;
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
    const rows = await this.sql<EventRow[]>`
      select global_position::text, transaction_id::text, stream_id, stream_revision::text, event_id::text,
             event_type, data, metadata, recorded_at
      from events where stream_id = ${streamId} and stream_revision >= ${options.fromRevision ?? 0}
      order by events.stream_revision`;
    return rows.map(toRecorded);
  }

  async readAll(after: Position, limit: number): Promise<RecordedEvent[]> {
    const rows = await this.sql<EventRow[]>`
      select global_position::text, transaction_id::text, stream_id, stream_revision::text, event_id::text,
             event_type, data, metadata, recorded_at
      from events
      where (transaction_id, global_position) > (${after.commit.toString()}::xid8, ${after.index.toString()}::bigint)
        and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      order by events.transaction_id, events.global_position
      limit ${limit}`;
    return rows.map(toRecorded);
  }

  async head(): Promise<Position> {
    const [row] = await this.sql<{ xid: string; position: string }[]>`
      select transaction_id::text as xid, global_position::text as position from events
      order by transaction_id desc, global_position desc limit 1`;
    return row ? { commit: BigInt(row.xid), index: BigInt(row.position) } : START;
  }

  onAppend(listener: () => void): () => void {
    this.appended.on("append", listener);
    return () => this.appended.off("append", listener);
  }

  async close(): Promise<void> {
    this.appended.removeAllListeners();
  }
}

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
