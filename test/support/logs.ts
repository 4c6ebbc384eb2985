import { Writable } from "node:stream";
import { createLogger } from "../../src/http/logging.js";

/** A real logger whose JSON lines the test reads back, parsed. */
export function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().trim().split("\n")) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger("info", sink), lines };
}
