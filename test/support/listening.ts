import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger } from "../../src/http/logging.js";
import { createHttpServer } from "../../src/http/server.js";

/** The app on a loopback port, as the service's HTTP server runs it (a browser or fetch can reach it). */
export async function listening(
  app: Parameters<typeof createHttpServer>[0],
): Promise<{ server: Server; base: string }> {
  const server = createHttpServer(app, createLogger("silent"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
