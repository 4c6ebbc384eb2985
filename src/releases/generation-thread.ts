import { parentPort, workerData } from "node:worker_threads";
import postgres from "postgres";
import { connectionOptions } from "../db/connection-options.js";
import { positionFromString } from "../event-store/port.js";
import { PostgresEventStore } from "../event-store/postgres.js";
import { PersonalDataStore } from "../personal-data/store.js";
import { releaseArtifact } from "./artifact.js";
import { ArtifactWriter, sealArtifact } from "./artifact-store.js";
import type { GenerationMessage, GenerationTask } from "./generation.js";

/**
 * The body of a release generation's thread: writes the artefact from the log into the
 * chunk store and seals it, telling the parent each stream read and, at the end, what it
 * sealed. Its own connections, event store and heap: the API's event loop and memory are
 * not the generation's.
 */
const task = workerData as GenerationTask;
const post = (message: GenerationMessage) => parentPort?.postMessage(message);

const sql = postgres(task.databaseUrl, { ...connectionOptions, max: 2 });
// The store `openEventStore` opens, with the KurrentDB client loaded only when it is used:
// loaded in every thread, it and the embedded database's code were two thirds of its memory.
const events = task.eventStoreUrl
  ? new (await import("../event-store/kurrentdb.js")).KurrentDbEventStore(task.eventStoreUrl)
  : new PostgresEventStore(sql);
const store = new PersonalDataStore(events, sql);
try {
  let itemsDone = 0;
  const artifact = releaseArtifact(
    store,
    new Map(task.streams),
    { version: task.version, position: positionFromString(task.position) },
    () => post({ type: "progress", itemsDone: ++itemsDone }),
  );
  const writer = new ArtifactWriter(sql, task.jobId);
  for await (const text of artifact.text) await writer.write(text);
  const sealed = { version: task.version, ...(await writer.finish()), scope: artifact.scope() };
  await sealArtifact(sql, sealed);
  post({ type: "sealed", sealed });
} finally {
  await store.close();
  await sql.end();
}
