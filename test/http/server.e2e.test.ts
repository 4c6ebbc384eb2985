import type { Server } from "node:http";
import { createRoute } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { implemented, type Router } from "../../src/http/api.js";
import { errorResponses } from "../../src/http/errors.js";
import { apiRoutes } from "../../src/http/routes.js";
import { createHttpServer } from "../../src/http/server.js";
import { testApp } from "../support/app.js";
import { closed, exchange, listening, type RawAnswer } from "../support/raw-http.js";

/*
 * The app behind the server `npm start` runs (src/http/server.ts), over real sockets: what
 * Node and the Hono adapter answer before the app sees a request comes in the envelope,
 * dot segments are refused instead of resolved, and answers without content carry no type.
 */

/** A route answering 204, like a key revocation, without the database one needs. */
function registerNoContent(app: Router) {
  app.openapi(
    createRoute({
      method: "delete",
      path: "/api/v1/probe",
      operationId: "probeNoContent",
      ...implemented,
      responses: { 204: { description: "Done" }, ...errorResponses(500) },
    }),
    (c) => c.body(null, 204),
  );
}

const { app, logger, rawLogs } = testApp([...apiRoutes, registerNoContent], {
  corsOrigins: ["https://scores.example"],
});
let server: Server;
let port: number;
beforeAll(async () => {
  server = createHttpServer(app, logger, {
    headersTimeout: 500,
    requestTimeout: 1000,
    connectionsCheckingInterval: 100,
  });
  port = await listening(server);
});
afterAll(() => closed(server));

const get = (target: string, headers = "") =>
  exchange(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`);

/** Asserts an answer in the error envelope, its Content-Length true to its bytes. */
function expectEnvelope(answer: RawAnswer, status: number, code: string) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  expect(JSON.parse(answer.body)).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
}

describe("requests Node refuses before the app sees them", () => {
  it("headers over 16 KB: 431 REQUEST_HEADERS_TOO_LARGE, logged without the header", async () => {
    const cookie = `session=${"c".repeat(17 * 1024)}`;
    const answer = await get("/api/v1/health", `Cookie: ${cookie}\r\n`);
    expectEnvelope(answer, 431, "REQUEST_HEADERS_TOO_LARGE");
    expect(answer.headers.connection).toBe("close");
    expect(rawLogs()).toContain("HPE_HEADER_OVERFLOW");
    expect(rawLogs()).not.toContain("ccccccccccccccccccccccccccccccc");
  });

  it.each([
    ["bytes that are not HTTP", "GARBAGE\r\n\r\n"],
    ["a space in the target", "GET /api/v1/health now HTTP/1.1\r\nHost: localhost\r\n\r\n"],
    ["a header without a colon", "GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nBroken\r\n\r\n"],
    [
      "an invalid chunk size",
      "POST /api/v1/probe HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ],
  ])("%s: 400 MALFORMED_REQUEST", async (_, request) => {
    expectEnvelope(await exchange(port, request), 400, "MALFORMED_REQUEST");
  });

  it("headers that never finish arriving: 408 REQUEST_TIMEOUT", async () => {
    expectEnvelope(await exchange(port, "GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\n"), 408, "REQUEST_TIMEOUT");
  });
});

describe("requests the adapter cannot turn into a URL", () => {
  it.each([
    ["no Host header", "GET /api/v1/health HTTP/1.1\r\nConnection: close\r\n\r\n"],
    ["a backslash in the path", "GET /api/v1\\health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"],
    ["a Host that is not a host", "GET /api/v1/health HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n"],
  ])("%s: 400 MALFORMED_REQUEST", async (_, request) => {
    expectEnvelope(await exchange(port, request), 400, "MALFORMED_REQUEST");
  });
});

describe("dot segments", () => {
  it.each([
    "/api/v1/participants/%2e%2e/health",
    "/api/v1/participants/%2E%2e/health",
    "/api/v1/participants/.%2e/health",
    "/api/v1/participants/../health",
    "/api/v1/./health",
    "/api/v1/%2e/health",
    "/api/v1/health/..",
    "/api/v1/health/.?x=1",
    "http://localhost/api/v1/x/../health",
  ])("%s is refused with 400 MALFORMED_REQUEST, not served as another path", async (target) => {
    const answer = await get(target);
    expectEnvelope(answer, 400, "MALFORMED_REQUEST");
    expect(answer.headers["api-version"]).toBe("v1");
  });

  it("leaves dots inside a segment, and in the query, alone", async () => {
    expect((await get("/api/v1/health")).status).toBe(200);
    expect((await get("/docs/assets/swagger-ui.css")).status).toBe(200);
    expect((await get("/docs/assets/..swagger-ui.css")).status).toBe(404);
    expectEnvelope(await get("/api/v1/health?next=../x"), 400, "VALIDATION_FAILED");
  });
});

describe("answers without content", () => {
  it("carry no Content-Type: a 204, and a CORS preflight", async () => {
    const done = await exchange(port, "DELETE /api/v1/probe HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expect([done.status, done.body, done.headers["content-type"]]).toEqual([204, "", undefined]);
    const preflight = await exchange(
      port,
      "OPTIONS /api/v1/health HTTP/1.1\r\nHost: localhost\r\nOrigin: https://scores.example\r\n" +
        "Access-Control-Request-Method: GET\r\nConnection: close\r\n\r\n",
    );
    expect([preflight.status, preflight.headers["content-type"]]).toEqual([204, undefined]);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://scores.example");
  });

  it("while a 405 still says what it is", async () => {
    const answer = await exchange(port, "PUT /api/v1/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    expectEnvelope(answer, 405, "METHOD_NOT_ALLOWED");
    expect(answer.headers.allow).toBe("GET, HEAD");
  });
});
