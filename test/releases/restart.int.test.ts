import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { requestRelease } from "../../src/commands/releases/handlers.js";
import { positionFromString } from "../../src/event-store/port.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { releaseArtifact, releaseStreams } from "../../src/releases/artifact.js";
import { artifactBytes, findSealedArtifact } from "../../src/releases/artifact-store.js";
import { releaseStream } from "../../streams/release.js";
import { cricsheetFile, matchFiles } from "../support/cricsheet.js";
import { postgresDatabase, postgresUrl, type TestDatabase } from "../support/databases.js";

/**
 * A release's generation survives its process: a worker (`cricket projections run`) is
 * killed (SIGKILL) part-way through writing the artefact, another one started, and the job
 * is published once, with the bytes a generation in one go writes. Real processes on a real
 * PostgreSQL server (the embedded store lives in the process that would be killed).
 */
const url = postgresUrl();
let db: TestDatabase | undefined;
const workers: ChildProcess[] = [];
afterAll(async () => {
  for (const worker of workers) worker.kill("SIGKILL");
  await db?.close();
});

const worker = () => {
  const child = spawn(process.execPath, ["bin/cricket.js", "projections", "run"], {
    env: { ...process.env, DATABASE_URL: db?.url, REDIS_URL: "", EVENTSTORE_URL: "", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  workers.push(child);
  return child;
};

type Job = { job_id: string; status: string; attempts: number; items_done: number };

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no ${what} within ${timeoutMs} ms`);
}

describe.skipIf(!url)("a release generation killed part-way", () => {
  it("is begun again by the next worker and published once, with the same bytes", async () => {
    db = await postgresDatabase(url as string);
    const { sql } = db;
    const store = new PostgresEventStore(sql);
    const imported = await importCricsheet(
      store,
      [...matchFiles("ipl", 335982, 336041), ...matchFiles("ipl", 392181, 392239)].map(cricsheetFile),
    );
    expect(imported.failed).toEqual([]);
    await requestRelease(store, "1.0.0", { actor: "test", now: new Date() });

    const first = worker();
    const job = () =>
      sql<Job[]>`select job_id::text, status, attempts, items_done from release_job`.then(([row]) => row);
    // Part-way: a chunk written, the artifact not sealed. Watched in the artifact's own
    // table, which the generator writes, not in the read model its progress reaches later:
    // a worker with nothing else to do had sealed it by then.
    const underWay = await until("a chunk", async () => {
      const [chunk] = await sql<{ job_id: string }[]>`select job_id::text from release_artifact_chunks limit 1`;
      return chunk;
    });
    first.kill("SIGKILL");
    await once(first, "exit");
    expect(await findSealedArtifact(sql, underWay.job_id)).toBeUndefined();
    const begun = (await store.readStream(releaseStream("1.0.0"))).filter(
      (e) => e.type === "DatasetReleaseGenerationStarted",
    );
    expect(begun).toHaveLength(1);

    const second = worker();
    const published = await until("release", async () => {
      const [row] = await sql<{ sha256: string; position: string; byte_length: number }[]>`
        select sha256, position, byte_length::int from dataset_release where version = '1.0.0'`;
      return row;
    });
    second.kill("SIGTERM");
    await once(second, "exit");

    expect(await job()).toMatchObject({ job_id: underWay.job_id, status: "published", attempts: 2 });
    const events = (await store.readStream(releaseStream("1.0.0"))).map((e) => e.type);
    expect(events.filter((type) => type === "DatasetReleasePublished")).toHaveLength(1);

    const stored = await findSealedArtifact(sql, underWay.job_id);
    expect(stored).toMatchObject({ sha256: published.sha256, byteLength: published.byte_length });
    const served = createHash("sha256");
    for await (const chunk of artifactBytes(sql, stored as NonNullable<typeof stored>)) served.update(chunk);
    expect(served.digest("hex")).toBe(published.sha256);

    const again = createHash("sha256");
    const artifact = releaseArtifact(store, await releaseStreams(sql), {
      version: "1.0.0",
      position: positionFromString(published.position),
    });
    for await (const text of artifact.text) again.update(text);
    expect(again.digest("hex")).toBe(published.sha256);
  }, 300_000);
});
