import { mkdtemp, rm, writeFile } from "node:fs/promises";
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
