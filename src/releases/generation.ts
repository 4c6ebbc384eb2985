import { Worker } from "node:worker_threads";
import type { Sql } from "../db/database.js";
import type { ReleaseStreams } from "./artifact.js";
import type { SealedArtifact } from "./artifact-store.js";

/**
 * A release's artefact written and sealed in a thread of its own (./generation-thread.ts).
 * Writing 100 MB of canonical JSON allocates a great many short-lived objects: on the API's
 * thread that garbage grew the server's heap by 170 MB (a full IPL) before V8 collected it,
 * and kept it grown, and every fixture folded held the API's event loop.
 */

/**
 * The thread's heap, MB. What a generation keeps is one stream and the streams' ids, so 48 MB
 * of old generation is far from needed; bounding it makes V8 collect the garbage early (a
 * full IPL peaked 140 MB over the process unbounded, 85 MB so), and a generation that
 * somehow needed more would fail, be retried, and be given up, not take the server's memory.
 */
const HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 };

/** How the thread reaches the database the caller's pool is connected to. */
export type Connection = {
  host: string;
  port: number;
  database: string;
  user: string;
  pass?: string;
  ssl?: boolean | "require" | "allow" | "prefer" | "verify-full";
};

const SSL_MODES = ["require", "allow", "prefer", "verify-full"] as const;

export type GenerationTask = {
  connection: Connection;
  eventStoreUrl: string | undefined;
  jobId: string;
  version: string;
  position: string;
  streams: [string, readonly string[]][];
};

export type GenerationMessage = { type: "progress"; itemsDone: number } | { type: "sealed"; sealed: SealedArtifact };

/** The connection settings of a pool, for another pool to open to the same database. */
export function connectionOf(sql: Sql): Connection {
  const { host, port, database, user, pass, ssl } = sql.options;
  return {
    host: host[0] as string,
    port: port[0] as number,
    database,
    user,
    ...(typeof pass === "string" ? { pass } : {}),
    ...(sslMode(ssl) === undefined ? {} : { ssl: sslMode(ssl) }),
  };
}

const sslMode = (ssl: unknown): Connection["ssl"] =>
  typeof ssl === "boolean" ? ssl : SSL_MODES.find((mode) => mode === ssl);

/**
 * Runs the generation in its thread until it has sealed the artefact; `onProgress` hears
 * each stream read. Rejects if the thread fails or ends without sealing; `signal` ends it.
 */
export function generateInThread(
  task: Omit<GenerationTask, "streams"> & { streams: ReleaseStreams },
  onProgress: (itemsDone: number) => void,
  signal: AbortSignal,
): Promise<SealedArtifact> {
  const worker = new Worker(new URL("./generation-thread.mjs", import.meta.url), {
    workerData: { ...task, streams: [...task.streams] } satisfies GenerationTask,
    resourceLimits: HEAP,
  });
  const stop = () => void worker.terminate();
  signal.addEventListener("abort", stop, { once: true });
  return new Promise<SealedArtifact>((resolve, reject) => {
    let sealed: SealedArtifact | undefined;
    worker.on("message", (message: GenerationMessage) => {
      if (message.type === "progress") onProgress(message.itemsDone);
      else sealed = message.sealed;
    });
    worker.on("error", reject);
    worker.on("exit", (code) => {
      signal.removeEventListener("abort", stop);
      if (sealed) resolve(sealed);
      else reject(new Error(`the release generation's thread ended without sealing (exit code ${code})`));
    });
  });
}
