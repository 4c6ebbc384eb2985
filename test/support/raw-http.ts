import type { Server } from "node:http";
import { type AddressInfo, connect } from "node:net";

/** An answer as it came over the wire: status, headers by lower-case name, and the body. */
export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** Listens on a free loopback port; resolves with the port once listening. */
export const listening = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

export const closed = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * Writes `request` as raw bytes to the server and reads until it closes the connection:
 * what a client sends that fetch would refuse or mend before sending (a dot segment, an
 * oversized header, bytes that are not HTTP). Send `Connection: close` on requests the
 * server would otherwise keep open.
 */
export function exchange(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    socket.on("data", (chunk) => chunks.push(chunk));
    // A server that refuses a request may reset the connection while the client still
    // writes; what it answered before that is the answer.
    socket.on("error", (error) => {
      if (chunks.length === 0) reject(error);
    });
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: text.slice(split + 4) });
    });
  });
}
