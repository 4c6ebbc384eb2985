import type { Server } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "../../src/http/routes.js";
import { createHttpServer } from "../../src/http/server.js";
import { testApp } from "../support/app.js";
import { closed, listening } from "../support/raw-http.js";
import { openSubmissionApi, type SubmissionApi, submission, validEvents } from "../support/submissions.js";

/*
 * A client that goes away in the middle of sending its body is not a fault of the server:
 * it used to be logged as "unhandled error" with a stack, like a bug. It is logged as a
 * client abort, and nothing is stored.
 */

let api: SubmissionApi;
let server: Server;
let port: number;
let logs: () => Record<string, unknown>[];
beforeAll(async () => {
  api = await openSubmissionApi();
  const built = testApp(apiRoutes, api.deps());
  logs = built.logs;
  server = createHttpServer(built.app, built.logger);
  port = await listening(server);
}, 60_000);
afterAll(async () => {
  await closed(server);
  await api?.close();
});

/** Sends the head and the first part of `body`, then drops the connection. */
function abandon(path: string, token: string, body: string) {
  return new Promise<void>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
          body.slice(0, body.length / 2),
      );
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
  });
}

describe("a client that aborts mid-body", () => {
  it("is logged as an abort, not as an error, and stores nothing", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    await abandon(
      "/api/v1/submissions",
      api.admin.token,
      JSON.stringify(submission(fixture, validEvents(fixture, 600))),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = logs();
    expect(lines.filter((l) => l.level === 50)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ msg: "client aborted the request", level: 30 }));
    expect(lines.map((l) => l.msg)).not.toContain("database unavailable");
    expect(await api.publicEvents(fixture.id)).toEqual([]);
  });
});
