import { parentPort } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type MultiplexerOptions, PGliteMultiplexer } from "./pglite-multiplexer.js";

/**
 * The body of the thread that runs embedded databases (`servedInWorker` in ./embedded.ts).
 * PGlite executes queries synchronously in WebAssembly, so on the API's own thread every
 * query, an export's page or a projector's recompute, held the event loop for as long as
 * it ran; here it runs beside it, on the machine's other core.
 *
 * One thread serves every database its process opens (the tests open hundreds): compiling
 * PGlite's WebAssembly takes seconds in each new thread and is then reused. Each is opened
 * with the extensions the migrations create and served on a loopback port of its own.
 */
export type PGliteOptions = { dataDir?: string; startParams?: string[] } & MultiplexerOptions;
export type WorkerRequest = { id: number } & ({ open: PGliteOptions } | { close: true });
export type WorkerReply = { id: number } & ({ port: number } | { closed: true } | { error: string });

const open = new Map<number, { db: PGlite; multiplexer: PGliteMultiplexer }>();
const parent = parentPort as NonNullable<typeof parentPort>;

async function handle(request: WorkerRequest): Promise<WorkerReply> {
  const { id } = request;
  if ("open" in request) {
    const { dataDir, startParams, ...served } = request.open;
    const db = await PGlite.create({
      ...(dataDir ? { dataDir } : {}),
      ...(startParams ? { startParams } : {}),
      extensions: { pg_trgm },
    });
    const multiplexer = new PGliteMultiplexer(db, served);
    const port = await multiplexer.listen().catch(async (error: unknown) => {
      await db.close();
      throw error;
    });
    open.set(id, { db, multiplexer });
    return { id, port };
  }
  const served = open.get(id);
  open.delete(id);
  await served?.multiplexer.close();
  await served?.db.close();
  return { id, closed: true };
}

parent.on("message", (request: WorkerRequest) => {
  handle(request).then(
    (reply) => parent.postMessage(reply),
    (error: unknown) => parent.postMessage({ id: request.id, error: String(error) } satisfies WorkerReply),
  );
});
