import type { Sql, Tx } from "../db/database.js";
import type { Position } from "../event-store/port.js";
import type { Projector } from "./projector.js";

export type Generation = {
  projector: string;
  generation: number;
  version: number;
  schemaName: string;
  state: "building" | "active" | "retired";
  checkpoint: Position;
  eventsApplied: number;
  updatedAt: Date;
  lastError: string | null;
};

type GenerationRow = {
  projector: string;
  generation: number;
  version: number;
  schema_name: string;
  state: Generation["state"];
  checkpoint_commit: string;
  checkpoint_index: string;
  events_applied: string;
  updated_at: Date;
  last_error: string | null;
};

const toGeneration = (r: GenerationRow): Generation => ({
  projector: r.projector,
  generation: r.generation,
  version: r.version,
  schemaName: r.schema_name,
  state: r.state,
  checkpoint: { commit: BigInt(r.checkpoint_commit), index: BigInt(r.checkpoint_index) },
  eventsApplied: Number(r.events_applied),
  updatedAt: r.updated_at,
  lastError: r.last_error,
});

/** Serialises generation changes of one projector across processes. */
const lockProjector = (tx: Tx, name: string) => tx`select pg_advisory_xact_lock(hashtext(${`projector:${name}`}))`;

export async function listGenerations(sql: Sql | Tx, projector?: string): Promise<Generation[]> {
  const rows = await sql<GenerationRow[]>`
    select * from projector_generations
    where state <> 'retired' ${projector ? sql`and projector = ${projector}` : sql``}
    order by projector, generation`;
  return rows.map(toGeneration);
}

/**
 * Whether any read model's active generation is of an older version than `projectors` (this
 * process's code): after an upgrade, until the rebuild for the new version switches in.
 */
export async function readModelsBehind(sql: Sql, projectors: readonly Projector[]): Promise<boolean> {
  const active = await sql<{ projector: string; version: number }[]>`
    select projector, version from projector_generations where state = 'active'`;
  const versions = new Map(projectors.map((p) => [p.name, p.version]));
  return active.some((g) => g.version < (versions.get(g.projector) ?? 0));
}

export async function findGeneration(sql: Sql | Tx, projector: string, state: "active" | "building") {
  const [row] = await sql<GenerationRow[]>`
    select * from projector_generations where projector = ${projector} and state = ${state}`;
  return row ? toGeneration(row) : undefined;
}

/**
 * Creates the projector's tables in a fresh schema. The first generation of a projector is
 * active at once (there is nothing to keep serving); later ones start as building.
 */
export async function createGeneration(sql: Sql, projector: Projector): Promise<Generation> {
  return sql.begin(async (tx) => {
    await lockProjector(tx, projector.name);
    const existing = await findGeneration(tx, projector.name, "building");
    if (existing) return existing;
    const active = await findGeneration(tx, projector.name, "active");
    const [{ next } = { next: 1 }] = await tx<{ next: number }[]>`
      select coalesce(max(generation), 0) + 1 as next from projector_generations where projector = ${projector.name}`;
    const schemaName = `rm_${projector.name}_g${next}`;
    await tx.unsafe(`drop schema if exists ${schemaName} cascade; create schema ${schemaName}`);
    await tx`select set_config('search_path', ${`${schemaName}, public`}, true)`;
    await tx.unsafe(projector.ddl);
    const state = active ? "building" : "active";
    const [row] = await tx<GenerationRow[]>`
      insert into projector_generations (projector, generation, version, schema_name, state, activated_at)
      values (${projector.name}, ${next}, ${projector.version}, ${schemaName}, ${state},
              ${state === "active" ? tx`now()` : null})
      returning *`;
    if (state === "active") await pointViews(tx, projector, schemaName);
    return toGeneration(row as GenerationRow);
  });
}

/**
 * Records progress only if nobody else moved the checkpoint since `from` was read; returns
 * the generation's change stamp after it (`<generation>:<events applied>`, as the read-model
 * watch polls it), or undefined when someone else had.
 */
export async function advanceCheckpoint(
  tx: Sql | Tx,
  generation: Generation,
  from: Position,
  to: Position,
  applied: number,
): Promise<string | undefined> {
  const [row] = await tx<{ stamp: string }[]>`
    update projector_generations
    set checkpoint_commit = ${to.commit.toString()}, checkpoint_index = ${to.index.toString()},
        events_applied = events_applied + ${applied}, updated_at = now(), last_error = null
    where projector = ${generation.projector} and generation = ${generation.generation} and state <> 'retired'
      and checkpoint_commit = ${from.commit.toString()} and checkpoint_index = ${from.index.toString()}
    returning generation || ':' || events_applied as stamp`;
  return row?.stamp;
}

export async function recordError(sql: Sql, generation: Generation, message: string): Promise<void> {
  await sql`update projector_generations set last_error = ${message}, updated_at = now()
            where projector = ${generation.projector} and generation = ${generation.generation}`;
}

/**
 * Makes a caught-up building generation the active one: readers switch in one transaction,
 * and the old generation's schema is dropped. Refuses (returns false) while the building
 * generation is behind the active one.
 */
export async function activate(sql: Sql, projector: Projector, building: Generation): Promise<boolean> {
  return sql.begin(async (tx) => {
    await lockProjector(tx, projector.name);
    const [fresh] = await tx<GenerationRow[]>`
      select * from projector_generations
      where projector = ${projector.name} and generation = ${building.generation} and state = 'building' for update`;
    if (!fresh) return false;
    const candidate = toGeneration(fresh);
    const [old] = await tx<GenerationRow[]>`
      select * from projector_generations where projector = ${projector.name} and state = 'active' for update`;
    if (old) {
      const previous = toGeneration(old);
      const behind =
        candidate.checkpoint.commit < previous.checkpoint.commit ||
        (candidate.checkpoint.commit === previous.checkpoint.commit &&
          candidate.checkpoint.index < previous.checkpoint.index);
      if (behind) return false;
      await tx`update projector_generations set state = 'retired', updated_at = now()
               where projector = ${projector.name} and generation = ${previous.generation}`;
    }
    await tx`update projector_generations set state = 'active', activated_at = now(), updated_at = now()
             where projector = ${projector.name} and generation = ${candidate.generation}`;
    await pointViews(tx, projector, candidate.schemaName);
    if (old) await tx.unsafe(`drop schema if exists ${(old as GenerationRow).schema_name} cascade`);
    return true;
  });
}

async function pointViews(tx: Tx, projector: Projector, schemaName: string) {
  for (const table of projector.tables) {
    await tx.unsafe(
      `drop view if exists public.${table}; create view public.${table} as select * from ${schemaName}.${table}`,
    );
  }
}

/**
 * Vacuums every table in the generation's schema and refreshes the planner's statistics.
 * Autovacuum does both on Postgres a minute or more after a table grows, where it is on (it
 * is off on some servers, this machine's among them); the embedded database has none, so
 * without this its plans would rest forever on the estimates of empty tables. The vacuum
 * marks the pages every reader sees whole, without which an index-only scan reads the table
 * for each row it finds, and makes the room of rows replaced by updates (innings totals,
 * aggregates) reusable. A table at a time, each within the statement bound, with other
 * clients' turns between them on the embedded database; one another process is vacuuming,
 * or a switch is dropping, is skipped.
 */
export async function vacuumGeneration(sql: Sql, generation: Generation): Promise<void> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = ${generation.schemaName}`;
  for (const { name } of tables) await sql.unsafe(`vacuum (analyze, skip_locked) ${name}`);
}
