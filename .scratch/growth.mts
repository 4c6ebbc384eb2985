import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { postgresDatabase, pgliteDatabase } from "../test/support/scratch-databases.js";

const IPL = "/work/shared/data/cricsheet/ipl";
const N = Number(process.env.N ?? 250);
const COPIES = Number(process.env.COPIES ?? 5);
const files = (await readdir(IPL)).filter((n) => n.endsWith(".json")).sort().slice(0, N);
const tmp = await mkdtemp(path.join(os.tmpdir(), "growth-"));
function renameDeep(value: any, rename: (t: string) => string): any {
  if (typeof value === "string") return rename(value);
  if (Array.isArray(value)) return value.map((i) => renameDeep(i, rename));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, i]) => [rename(k), renameDeep(i, rename)]));
  return value;
}
async function copyDir(copy: number) {
  const dir = path.join(tmp, `c${copy}`);
  await mkdir(dir);
  for (const name of files) {
    const match = JSON.parse(await readFile(path.join(IPL, name), "utf8"));
    const suffix = ` (copy ${copy})`;
    const teams = new Map(match.info.teams.map((t: string) => [t, `${t}${suffix}`]));
    const r = renameDeep(match, (t) => (teams.get(t) as string) ?? t);
    if (r.info.event?.name) r.info.event.name += suffix;
    if (r.info.venue) r.info.venue += suffix;
    const people = r.info.registry?.people ?? {};
    for (const [n, id] of Object.entries(people)) people[n] = `${id}-${copy}`;
    await writeFile(path.join(dir, `${copy}${name}`), JSON.stringify(r));
  }
  return dir;
}
const db = process.env.BACKEND === "pglite" ? await pgliteDatabase() : await postgresDatabase("postgres://postgres@127.0.0.1:5432/test");
const dbname = new URL(db.url).pathname.slice(1);
await db.sql.unsafe(`alter database ${dbname} set session_preload_libraries = 'auto_explain'`);
await db.sql.unsafe(`alter database ${dbname} set auto_explain.log_min_duration = '50ms'`);
const { default: postgres } = await import("postgres");
const { connectionOptions } = await import("../src/db/database.js");
const sql2 = postgres(db.url, { ...connectionOptions, max: 10 });
const store = new PostgresEventStore(sql2);
const runner = new ProjectionRunner(sql2, store, projectors);
try {
  for (let c = 1; c <= COPIES; c++) {
    const dir = await copyDir(c);
    console.log("MARK copy", c, new Date().toISOString());
    const wal = async () => (await db.sql`select pg_current_wal_lsn()::text as l, (select blks_read from pg_stat_database where datname = current_database())::text as r`)[0] as any;
    const w0 = await wal();
    let t = performance.now();
    const s = await importCricsheet(store, [dir]);
    const row: Record<string, number> = { import: Math.round(performance.now() - t) };
    for (const p of projectors.filter((p) => (process.env.ONLY ?? p.name).split(',').includes(p.name))) {
      t = performance.now();
      await runner.catchUp([p.name], { timeoutMs: 3600_000 });
      row[p.name] = Math.round(performance.now() - t);
    }
    const w1 = await wal();
    const d = (await db.sql`select pg_wal_lsn_diff(${w1.l}, ${w0.l})::text as d`)[0] as any;
    row.walMB = Math.round(Number(d.d) / 2 ** 20);
    row.blksRead = Number(w1.r) - Number(w0.r);
    const io = await db.sql`select indexrelname as n, idx_blks_read::int as r from pg_statio_user_indexes union all select relname || ' (heap)', heap_blks_read::int from pg_statio_user_tables order by r desc limit 14`;
    console.log(io.map((x: any) => `${x.n}=${x.r}`).join(" "));
    await db.sql`select pg_stat_reset()`;
    console.log(`copy ${c} (${s.matches} matches)`, JSON.stringify(row));
  }
} finally {
  await sql2.end();
  await db.close();
}
