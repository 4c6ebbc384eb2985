import type postgres from "postgres";
import { streamEntityId } from "../../streams/envelope.js";
import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";

export { streamEntityId };

/** Each event's data with the id of the stream it belongs to (the fixture id for fixture events). */
export const dataWithStream = <E extends Pick<RecordedEvent, "streamId" | "data">>(
  events: readonly E[],
): { entityId: string; data: E["data"] }[] =>
  events.map((e) => ({ entityId: streamEntityId(e.streamId), data: e.data }));

/**
 * A JSON value as one query parameter; for multi-row statements, an array of rows:
 * `insert into t select * from jsonb_to_recordset(${json(tx, rows)}) as r(a text, b int)`.
 * One parameter whatever the row count, and arrays and nested objects keep their types.
 * postgres.js types JSON without optional properties (`{a?: number}` is not a JSONValue),
 * though it serialises them as JSON.stringify does, hence the one cast.
 */
export const json = (tx: Tx, value: object) => tx.json(value as postgres.JSONValue);

/** The fields that hold a value, for a row `jsonb_to_recordset` reads (a missing field is null there too). */
export function withoutNulls(row: Record<string, unknown>): Record<string, unknown> {
  // A loop: Object.entries and fromEntries took four times as long, once a delivery revision.
  const present: Record<string, unknown> = {};
  for (const key in row) if (row[key] !== null) present[key] = row[key];
  return present;
}

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

/** `{fixture_id, value}` a fixture of the events' streams, its last event's `data` winning. */
export const perFixture = <E extends Pick<RecordedEvent, "streamId">, T>(events: readonly E[], data: (e: E) => T) =>
  lastByKey(
    events.map((e) => ({ fixture_id: streamEntityId(e.streamId), value: data(e) })),
    (r) => r.fixture_id,
  );

/**
 * A delivery's key in a fixture's value (the statistics' and the history's): its id as a
 * uuid's text, lower case, however an event spells it.
 */
export const deliveryKey = (eventId: string): string => eventId.toLowerCase();

/**
 * Items grouped into one row a fixture, `{fixture_id, value: {deliveryKey: …}}`, each
 * delivery's entry made by `entryOf` from its items in the order given: the shape of a
 * per-fixture JSON value, one statement for a whole run.
 */
export function fixtureValues<T>(
  items: readonly T[],
  keysOf: (item: T) => { fixtureId: string; eventId: string },
  entryOf: (items: T[]) => unknown,
): { fixture_id: string; value: Record<string, unknown> }[] {
  const fixtures = new Map<string, Map<string, T[]>>();
  for (const item of items) {
    const { fixtureId, eventId } = keysOf(item);
    const deliveries = fixtures.get(fixtureId) ?? new Map<string, T[]>();
    const key = deliveryKey(eventId);
    deliveries.set(key, [...(deliveries.get(key) ?? []), item]);
    fixtures.set(fixtureId, deliveries);
  }
  return [...fixtures].map(([fixture_id, deliveries]) => ({
    fixture_id,
    value: Object.fromEntries([...deliveries].map(([key, mine]) => [key, entryOf(mine)])),
  }));
}
