import type postgres from "postgres";
import type { z } from "zod";
import type { EventDefinition } from "../../streams/catalogue.js";
import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";

/**
 * The data of a run of events of one type. Event data was validated against its schema when
 * it was appended, so projectors read it as that type without parsing every event again
 * (a full import is hundreds of thousands of deliveries).
 */
export const dataOf = <D extends EventDefinition>(_definition: D, events: readonly RecordedEvent[]) =>
  events.map((e) => e.data as z.infer<D["schema"]>);

/** Each event's data with the id of the stream it belongs to (the fixture id for fixture events). */
export const dataWithStream = <D extends EventDefinition>(_definition: D, events: readonly RecordedEvent[]) =>
  events.map((e) => ({ entityId: streamEntityId(e.streamId), data: e.data as z.infer<D["schema"]> }));

/** The id part of a stream id: `fixture-123` → `123`. */
export const streamEntityId = (streamId: string) => streamId.slice(streamId.indexOf("-") + 1);

/**
 * A JSON array as one query parameter, for multi-row statements:
 * `insert into t select * from jsonb_to_recordset(${json(tx, rows)}) as r(a text, b int)`.
 * One parameter whatever the row count, and arrays and nested objects keep their types.
 */
export const json = (tx: Tx, rows: readonly object[]) => tx.json(rows as unknown as postgres.JSONValue);

/** The last element per key, in first-seen order: a run's later events override earlier ones. */
export function lastByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = key(item);
    byKey.delete(k);
    byKey.set(k, item);
  }
  return [...byKey.values()];
}
