import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGliteMultiplexer } from "./pglite-multiplexer.js";

/**
 * The embedded database: PGlite in DATA_DIR, served on a loopback port so the API's pool and
 * any local CLI process share it. The process that opens it writes `embedded.json` beside the
 * data (port and pid); later processes find it there and connect instead of opening the
 * files a second time, which PGlite does not allow.
 */
type Endpoint = { port: number; pid: number };

export type EmbeddedDatabase = { port: number; owned: boolean; close(): Promise<void> };

const endpointFile = (dataDir: string) => path.join(dataDir, "embedded.json");

export async function openEmbedded(dataDir: string): Promise<EmbeddedDatabase> {
  const running = await findRunning(dataDir);
  if (running) return { port: running.port, owned: false, close: async () => {} };

  await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: path.join(dataDir, "pgdata") });
  const multiplexer = new PGliteMultiplexer(db);
  const port = await multiplexer.listen();
  const file = endpointFile(dataDir);
  await writeFile(`${file}.tmp`, JSON.stringify({ port, pid: process.pid } satisfies Endpoint));
  await rename(`${file}.tmp`, file);
  return {
    port,
    owned: true,
    async close() {
      await multiplexer.close();
      await db.close();
      await rm(file, { force: true });
    },
  };
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
