import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import postgres from "postgres";
import { afterEach, expect, it } from "vitest";
import { connectionOptions } from "../../src/db/database.js";
import { type EmbeddedDatabase, openEmbedded, servedInWorker } from "../../src/db/embedded.js";

let dataDir: string | undefined;
let embedded: EmbeddedDatabase | undefined;
afterEach(async () => {
  await embedded?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it("runs the embedded database beside the event loop: a long statement does not hold it", async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "cricket-embedded-"));
  embedded = await openEmbedded(dataDir);
  const sql = postgres({
    host: "127.0.0.1",
    port: embedded.port,
    user: "postgres",
    database: "postgres",
    max: 1,
    ...connectionOptions,
  });
  try {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    await sql`select pg_sleep(0.5)`;
    delay.disable();
    expect(performance.now() - started).toBeGreaterThanOrEqual(500);
    // On the API's thread the statement held the loop for all of its 500 ms.
    expect(delay.max / 1e6).toBeLessThan(200);
  } finally {
    await sql.end();
  }
});

it("refuses a data directory it cannot open with an error, and opens the next one", async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "cricket-embedded-"));
  const notADirectory = path.join(dataDir, "file");
  await writeFile(notADirectory, "not a database");
  await expect(servedInWorker({ dataDir: notADirectory })).rejects.toThrow();
  const next = await servedInWorker({});
  const sql = postgres({ host: "127.0.0.1", port: next.port, user: "postgres", database: "postgres", max: 1 });
  try {
    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
  } finally {
    await sql.end();
    await next.close();
  }
});

it("recycles its write-ahead log while it is open, as Postgres's checkpointer would", async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "cricket-embedded-"));
  embedded = await openEmbedded(dataDir);
  const sql = postgres({ host: "127.0.0.1", port: embedded.port, user: "postgres", database: "postgres", max: 1 });
  const walMegabytes = async () => {
    const wal = path.join(dataDir as string, "pgdata", "pg_wal");
    const files = await readdir(wal);
    const sizes = await Promise.all(files.map(async (f) => (await stat(path.join(wal, f))).size));
    return sizes.reduce((a, b) => a + b, 0) / 2 ** 20;
  };
  try {
    await sql`create table filler (n int, text text)`;
    // About 300 MB of log, in statements of about 50 MB: a checkpoint comes between them.
    for (let i = 0; i < 6; i++)
      await sql`insert into filler select g, repeat('x', 100) from generate_series(1, 300000) g`;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    // The first turn after the wait is answered, then the log is looked at (and checkpointed);
    // the second is answered only after that checkpoint.
    await sql`select 1`;
    await sql`select 1`;
    // Unchecked, the log kept all 300 MB until the database closed.
    expect(await walMegabytes()).toBeLessThan(160);
  } finally {
    await sql.end();
  }
}, 60_000);
