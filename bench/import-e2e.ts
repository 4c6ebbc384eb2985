import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { pgliteDatabase, postgresDatabase } from "../test/support/scratch-databases.js";
import { directoryBytes, startServer, stopServer } from "./server.js";
import { chosenBackends, log, measurement, pairedRatio, postgresUrl, type Result, seconds } from "./support.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IPL = fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const RUNS = Number(process.env.BENCH_IMPORT_E2E_RUNS ?? 2);

/**
 * `cricket import cricsheet` of the full IPL beside a running server, as a user runs it: the
 * server (`bin/server.js`, projectors on) and the CLI are separate processes on one fresh
 * database, timed from the command's start to its exit, which is after every read model has
 * caught up. Against the import's file phase alone in one process (`importCricsheet`, no read
 * models) on a fresh database of the same kind. Also the footprint once the server has
 * caught up: the database's size (or the embedded data directory's), as a multiple of the
 * raw JSON.
 */
export async function importE2eBenchmark(): Promise<Result[]> {
  const raw = await directoryBytes(IPL);
  const url = postgresUrl();
  const backends = [{ name: "pglite", label: "embedded", target: embeddedTarget }];
  if (url) backends.push({ name: "postgres", label: "postgres", target: postgresTarget(url) });
  const results: Result[] = [];
  for (const { label, target } of chosenBackends(backends)) results.push(await measure(label, raw, target));
  return results;
}

type Target = {
  /** A fresh database: the environment of both processes, its size, and how to drop it. */
  fresh(): Promise<{ env: Record<string, string>; bytes(): Promise<number>; drop(): Promise<void> }>;
  /** The file phase alone on a fresh database of the same kind, in seconds. */
  filesOnly(): Promise<number>;
};

const embeddedTarget: Target = {
  async fresh() {
    const dataDir = await mkdtemp(path.join(tmpdir(), "bench-import-"));
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: "" },
      bytes: () => directoryBytes(dataDir),
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
  async filesOnly() {
    const db = await pgliteDatabase({ onDisk: true });
    try {
      return await seconds(() => importCricsheet(new PostgresEventStore(db.sql), [IPL]));
    } finally {
      await db.close();
    }
  },
};

const postgresTarget = (url: string): Target => ({
  async fresh() {
    const db = await postgresDatabase(url);
    const bytes = async () => {
      const [row] = await db.sql<{ size: string }[]>`select pg_database_size(current_database())::text as size`;
      return Number(row?.size);
    };
    return { env: { DATABASE_URL: db.url }, bytes, drop: () => db.close() };
  },
  async filesOnly() {
    const db = await postgresDatabase(url);
    try {
      return await seconds(() => importCricsheet(new PostgresEventStore(db.sql), [IPL]));
    } finally {
      await db.close();
    }
  },
});

async function measure(backend: string, raw: number, target: Target): Promise<Result> {
  const endToEnd: number[] = [];
  const files: number[] = [];
  const footprint: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    log(`import-e2e: ${backend}: run ${i + 1} of ${RUNS}: the CLI beside a running server`);
    const db = await target.fresh();
    try {
      const server = await startServer(db.env);
      try {
        endToEnd.push(
          await seconds(() =>
            run(process.execPath, ["bin/cricket.js", "import", "cricsheet", IPL], {
              cwd: ROOT,
              env: { ...process.env, ...db.env, REDIS_URL: "", EVENTSTORE_URL: "" },
              maxBuffer: 64 * 1024 * 1024,
            }),
          ),
        );
        footprint.push((await db.bytes()) / raw);
      } finally {
        await stopServer(server);
      }
    } finally {
      await db.drop();
    }
    log(
      `import-e2e: ${backend}: run ${i + 1}: ${endToEnd.at(-1)?.toFixed(1)} s, footprint ${footprint.at(-1)?.toFixed(1)}× the JSON; the file phase alone`,
    );
    files.push(await target.filesOnly());
  }
  const subject = measurement(
    "`cricket import cricsheet` full IPL beside a running server, read models included",
    "s",
    endToEnd,
  );
  return {
    benchmark: "import-e2e",
    backend,
    subject: { ...subject, extra: { "footprint ×JSON": measurement("", "", footprint).median } },
    baseline: measurement("the file phase alone, in process", "s", files),
    ratio: pairedRatio(endToEnd, files),
  };
}
