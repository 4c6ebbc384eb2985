import { Worker } from "node:worker_threads";
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

export type GenerationTask = {
  /** The database the server's pool is connected to, as it connected (`Database.url`). */
  databaseUrl: string;
  /** KurrentDB's, when the events are there; else they are in the database. */
  eventStoreUrl: string | undefined;
  jobId: string;
  version: string;
  position: string;
  streams: [string, readonly string[]][];
};

export type GenerationMessage = { type: "progress"; itemsDone: number } | { type: "sealed"; sealed: SealedArtifact };

/**
 * Runs the generation in its thread until it has sealed the artefact; `onProgress` hears
 * each stream read. Rejects if the thread fails or ends without sealing; `signal` ends it.
 */
export function generateInThread(
  task: Omit<GenerationTask, "streams"> & { streams: ReleaseStreams },
  onProgress: (itemsDone: number) => void,
  signal: AbortSignal,
): Promise<SealedArtifact> {
  if (signal.aborted) return Promise.reject(new Error("the release generator is stopping"));
  const worker = new Worker(new URL("./generation-thread.mjs", import.meta.url), {
    workerData: { ...task, streams: [...task.streams] } satisfies GenerationTask,
    resourceLimits: HEAP,
  });
  const stop = () => void worker.terminate();
  signal.addEventListener("abort", stop, { once: true });
  // Settled only once the thread has ended: its last write is done, whatever happened.
  return new Promise<SealedArtifact>((resolve, reject) => {
    let sealed: SealedArtifact | undefined;
    let failure: unknown;
    worker.on("message", (message: GenerationMessage) => {
      if (message.type === "progress") onProgress(message.itemsDone);
      else sealed = message.sealed;
    });
    worker.on("error", (error) => {
      failure = error;
    });
    worker.on("exit", (code) => {
      signal.removeEventListener("abort", stop);
      if (sealed) resolve(sealed);
      else reject(failure ?? new Error(`the release generation's thread ended without sealing (exit code ${code})`));
    });
  });
}
