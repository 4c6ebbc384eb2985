import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import type { PGliteOptions, WorkerReply, WorkerRequest } from "./pglite-worker.js";

/**
 * The embedded database: PGlite in DATA_DIR, run in a thread of its own and served on a
 * loopback port so the API's pool and any local CLI process share it. The process that opens it writes `embedded.json` beside the
 * data (port and pid); later processes find it there and connect instead of opening the
 * files a second time, which PGlite does not allow.
 */
type Endpoint = { port: number; pid: number };

export type EmbeddedDatabase = {
  port: number;
  owned: boolean;
  /**
   * Rejects with EmbeddedServerGone when the process serving another process's database
   * ends: its clients' connections then retry a closed port for minutes. For the owner,
   * rejects if the thread the database runs in ends while it is open.
   */
  lost: Promise<never>;
  /** The same, asked now: EmbeddedServerGone once the serving process has ended, else undefined. */
  gone(): EmbeddedServerGone | undefined;
  close(): Promise<void>;
};

/** The process that served the embedded database ended while this one was using it. */
export class EmbeddedServerGone extends Error {
  override readonly name = "EmbeddedServerGone";
  constructor(
    readonly pid: number,
    dataDir: string,
  ) {
    super(
      `The server serving the embedded database in ${dataDir} (pid ${pid}) stopped while this command ran. ` +
        "What was stored before it stopped is kept; run the command again (an import skips what is already " +
        "stored), with the server started again or with no server running.",
    );
  }
}

/** The `lost` of a database that cannot be lost from under its process. */
export const NEVER_LOST: Promise<never> = new Promise(() => {});

/** How often a client checks that the database's owner still runs. */
const OWNER_CHECK_MS = 500;

/**
 * Postgres keeps up to max_wal_size of write-ahead log for the next checkpoint to recycle: 1 GB
 * by default, which after importing the full IPL was half of the data directory (1,025 of
 * 2,127 MB). An embedded database has no replicas or archive to feed, so a little log is kept
 * and checkpoints come sooner (no slower: docs/benchmarks.md, "Where the footprint goes").
 * PGlite never asks for those checkpoints itself, so its multiplexer runs one once half of
 * the bound has been written, as Postgres's checkpointer aims to.
 */
const WAL_MB = 64;
const EMBEDDED_SETTINGS = [`max_wal_size=${WAL_MB}MB`, `min_wal_size=${WAL_MB / 2}MB`];
const CHECKPOINT_AFTER_WAL_BYTES = (WAL_MB / 2) * 2 ** 20;

const endpointFile = (dataDir: string) => path.join(dataDir, "embedded.json");

export async function openEmbedded(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await findRunning(dataDir);
  if (running) {
    const owner = watchOwner(running.pid, dataDir);
    return { port: running.port, owned: false, lost: owner.lost, gone: owner.gone, close: async () => owner.stop() };
  }

  await mkdir(dataDir, { recursive: true });
  const served = await servedInWorker({
    dataDir: path.join(dataDir, "pgdata"),
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ["-c", setting])],
    checkpointAfterWalBytes: CHECKPOINT_AFTER_WAL_BYTES,
  });
  const file = endpointFile(dataDir);
  await writeFile(`${file}.tmp`, JSON.stringify({ port: served.port, pid: process.pid } satisfies Endpoint));
  await rename(`${file}.tmp`, file);
  return {
    port: served.port,
    owned: true,
    lost: served.lost,
    gone: () => undefined,
    async close() {
      await served.close();
      await rm(file, { force: true });
    },
  };
}

/**
 * PGlite served on a loopback port from the thread embedded databases run in
 * (./pglite-worker.ts), so its queries never hold this thread's event loop. The thread is
 * started with the first database and lives as long as the process; it keeps the process
 * alive only while a database is open. `lost` rejects if the thread ends while this
 * database is open (a crash of PGlite's WebAssembly), as a served database's client is told
 * when the serving process ends.
 */
export async function servedInWorker(
  options: PGliteOptions,
): Promise<{ port: number; lost: Promise<never>; close(): Promise<void> }> {
  const id = nextId++;
  const lost = new Promise<never>((_, reject) => serving.set(id, reject));
  lost.catch(() => {}); // only a caller racing its work against it needs to hear of it
  const reply = await ask({ id, open: options });
  if (!("port" in reply)) throw new Error(`the embedded database did not open: ${JSON.stringify(reply)}`);
  return {
    port: reply.port,
    lost,
    async close() {
      await ask({ id, close: true });
    },
  };
}

let thread: Worker | undefined;
let nextId = 1;
/** Requests the thread has not answered yet, by id. */
const waiting = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
/** Databases opened or opening, by id: what to tell each if the thread ends. */
const serving = new Map<number, (error: Error) => void>();

function ask(request: WorkerRequest): Promise<WorkerReply> {
  thread ??= startThread();
  const worker = thread;
  return new Promise<WorkerReply>((resolve, reject) => {
    waiting.set(request.id, { resolve, reject });
    worker.ref();
    worker.postMessage(request);
  }).then((reply) => {
    if ("error" in reply) throw new Error(reply.error);
    return reply;
  });
}

function startThread(): Worker {
  const worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url));
  worker.on("message", (reply: WorkerReply) => {
    waiting.get(reply.id)?.resolve(reply);
    waiting.delete(reply.id);
    if ("closed" in reply || "error" in reply) serving.delete(reply.id);
    if (serving.size === 0 && waiting.size === 0) worker.unref();
  });
  const fail = (error: Error) => {
    thread = undefined;
    for (const { reject } of waiting.values()) reject(error);
    for (const lose of serving.values()) lose(error);
    waiting.clear();
    serving.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the embedded database's thread ended (exit code ${code})`)));
  return worker;
}

async function findRunning(dataDir: string): Promise<Endpoint | undefined> {
  let endpoint: Endpoint;
  try {
    endpoint = JSON.parse(await readFile(endpointFile(dataDir), "utf8")) as Endpoint;
  } catch {
    return undefined;
  }
  if (endpoint.pid === process.pid || !isAlive(endpoint.pid)) return undefined;
  return (await answers(endpoint.port)) ? endpoint : undefined;
}

function watchOwner(pid: number, dataDir: string) {
  let timer: NodeJS.Timeout | undefined;
  const gone = () => (isAlive(pid) ? undefined : new EmbeddedServerGone(pid, dataDir));
  const lost = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      const error = gone();
      if (!error) return;
      clearInterval(timer);
      reject(error);
    }, OWNER_CHECK_MS);
    // The watch alone must not keep a finished command alive.
    timer.unref();
  });
  // Only a caller racing its work against it needs to hear of it.
  lost.catch(() => {});
  return { lost, gone, stop: () => clearInterval(timer) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(false));
  });
}
