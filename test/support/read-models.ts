import type { Sql } from "../../src/db/database.js";
import { type EventStore, type RecordedEvent, START } from "../../src/event-store/port.js";
import { findGeneration } from "../../src/projections/generations.js";
import type { Projector } from "../../src/projections/projector.js";

/** Every row of the given read-model views, as JSON text, in a stable order. */
export async function snapshot(sql: Sql, tables: readonly string[]): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = await sql<{ row: string }[]>`select to_jsonb(t)::text as row from ${sql(table)} t order by 1`;
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/**
 * Applies the whole log (or the events `only` picks) to the projector's active tables once
 * more, bypassing the checkpoint: what a replay after a crash between effects and checkpoint
 * would do if the runtime did not prevent it. A projector that is idempotent on replay ends
 * unchanged.
 */
export async function replayWholeLog(
  sql: Sql,
  store: EventStore,
  projector: Projector,
  only: (event: RecordedEvent) => boolean = () => true,
): Promise<void> {
  const generation = await findGeneration(sql, projector.name, "active");
  if (!generation) throw new Error(`${projector.name} has no active generation`);
  const events: RecordedEvent[] = [];
  for (let after = START; ; ) {
    const batch = await store.readAll(after, 1000);
    const last = batch.at(-1);
    if (!last) break;
    events.push(...batch);
    after = last.position;
  }
  const handled = events.filter((e) => (projector.types?.has(e.type) ?? true) && only(e));
  await sql.begin(async (tx) => {
    await tx`select set_config('search_path', ${`${generation.schemaName}, public`}, true)`;
    await projector.apply(tx, handled);
  });
}
