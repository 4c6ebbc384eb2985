import { Agent, request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, MAX_BODY_BYTES } from "../../src/http/app.js";
import { createLogger } from "../../src/http/logging.js";
import { apiRoutes } from "../../src/http/routes.js";
import { createHttpServer } from "../../src/http/server.js";
import { closed, listening } from "../support/raw-http.js";
import { openSubmissionApi, type SubmissionApi } from "../support/submissions.js";

/*
 * An answer given before a request's body was read (401 before an 800 KB body, 413 on a 2 MB
 * one) used to say `Connection: keep-alive` and then reset the connection: the client's next
 * request on it failed. Now a body within the limit is read to its end, so the connection
 * serves the next request; one over the limit is answered with `Connection: close`.
 */

let api: SubmissionApi;
let server: Server;
let port: number;
beforeAll(async () => {
  api = await openSubmissionApi();
  server = createHttpServer(
    createApp({ ...api.deps(), logger: createLogger("silent") }, apiRoutes),
    createLogger("silent"),
  );
  port = await listening(server);
}, 60_000);
afterAll(async () => {
  await closed(server);
  await api?.close();
});

type Answer = { status: number; reusedSocket: boolean; connection: string | undefined };

function send(agent: Agent, method: string, path: string, body?: Buffer, type = "application/json"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = body ? { "content-type": type, "content-length": String(body.length) } : {};
    const req = request({ port, host: "127.0.0.1", method, path, agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket, connection: res.headers.connection }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("a keep-alive connection after an early answer", () => {
  it("serves the next request when the refused body was within the limit, JSON or upload", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const upload = Buffer.from(
      `--b\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n${" ".repeat(800_000)}\r\n--b--\r\n`,
    );
    try {
      for (const [path, body, type] of [
        ["/api/v1/submissions", Buffer.alloc(800_000, 0x20), "application/json"],
        ["/api/v1/submissions/uploads", upload, "multipart/form-data; boundary=b"],
      ] as const) {
        const refused = await send(agent, "POST", path, body, type);
        expect(refused, path).toMatchObject({ status: 401, connection: "keep-alive" });
        const next = await send(agent, "GET", "/api/v1/health");
        expect(next, path).toEqual({ status: 200, reusedSocket: true, connection: "keep-alive" });
      }
    } finally {
      agent.destroy();
    }
  });

  it("says it closes when the body is over the limit, and the next request gets a new connection", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await send(agent, "POST", "/api/v1/submissions", Buffer.alloc(MAX_BODY_BYTES * 2, 0x20));
      expect(refused).toMatchObject({ status: 413, connection: "close" });
      const next = await send(agent, "GET", "/api/v1/health");
      expect(next).toMatchObject({ status: 200, reusedSocket: false });
    } finally {
      agent.destroy();
    }
  });
});
