import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type postgres from "postgres";

const directory = fileURLToPath(new URL("./migrations/", import.meta.url));
const MIGRATION_LOCK = 7_405_311_001;

/**
 * Applies the numbered SQL files in ./migrations that the database has not seen, in order, in
 * one transaction. An advisory lock makes concurrent starts (API replicas, CLI) take turns.
 * `through` stops at that file (a test of a later migration starts from the schema before it).
 */
export async function migrate(sql: postgres.Sql, { through }: { through?: string } = {}): Promise<string[]> {
  const files = (await readdir(directory))
    .filter((f) => /^\d{3}-.*\.sql$/.test(f) && (through === undefined || f <= through))
    .sort();
  return sql.begin(async (tx) => {
    // Waiting for another process's migration, or building an index on a large table, may take long.
    await tx`set local statement_timeout = 0`;
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`;
    const applied = new Set((await tx<{ name: string }[]>`select name from schema_migrations`).map((r) => r.name));
    const pending = files.filter((f) => !applied.has(f));
    for (const file of pending) {
      await tx.unsafe(await readFile(path.join(directory, file), "utf8"));
      await tx`insert into schema_migrations (name) values (${file})`;
    }
    return pending;
  });
}
