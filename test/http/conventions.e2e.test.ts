import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/account-api.js";
import { type ConsumerApi, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";

/*
 * What every operation does, whatever its route file declares (src/http/operations.ts and
 * src/http/unrouted.ts): a query parameter it does not declare is 400, a method its path
 * does not have 405 with Allow, a JSON body sent as something else 415, a body sent to a
 * write that takes none 422. Walked over every implemented operation of the published
 * document, so a route added tomorrow is held to them too.
 */

let api: ConsumerApi;
let apiKey: string;
/** Path parameters that name something real, so no operation stops at a 404 before the rule under test. */
let ids: Record<string, string>;
beforeAll(async () => {
  api = await openConsumerApi();
  const consumer = await api.aConsumer();
  apiKey = consumer.apiKey;
  const events = await api.read(`/api/v1/fixtures/${api.fixtureId}/events?limit=1`);
  const eventId = (events.body as { data: { eventId: string }[] }).data[0]?.eventId as string;
  ids = {
    fixtureId: api.fixtureId,
    eventId,
    consumerId: String(consumer.consumerId),
    keyId: String(consumer.keyId),
    userId: api.admin.id,
    file: "swagger-ui.css",
  };
}, 60_000);
afterAll(() => api?.close());

type Operation = {
  method: string;
  template: string;
  security?: Record<string, unknown>[];
  requestBody?: { content: Record<string, unknown> };
  "x-implementation-status": string;
};

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

const implementedOperations = (): Operation[] =>
  Object.entries(api.api.document.paths as Record<string, Record<string, Operation>>).flatMap(([template, byMethod]) =>
    Object.entries(byMethod)
      .filter(([, operation]) => operation["x-implementation-status"] === "implemented")
      .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), template })),
  );

const pathOf = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? "x");

/** Sends `method` to `path` as the operation's callers would: an admin's token, and a key where one is required. */
function call(operation: Operation, init: { method?: string; query?: string; body?: string; type?: string } = {}) {
  const keyed = operation.security?.every((s) => "apiKey" in s) ?? false;
  return api.api.call(init.method ?? operation.method, `${pathOf(operation.template)}${init.query ?? ""}`, {
    token: keyed ? undefined : api.admin.token,
    headers: { ...(keyed ? { "x-api-key": apiKey } : {}), ...(init.type ? { "content-type": init.type } : {}) },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

const detailsOf = (res: ApiResponse) =>
  (res.body as { error: { details?: { code: string; field: string; message: string }[] } }).error.details;

describe("unknown query parameters", () => {
  it("are refused by every operation with 400 VALIDATION_FAILED naming each one", async () => {
    const operations = implementedOperations();
    expect(operations.length).toBeGreaterThan(50);
    for (const operation of operations) {
      const res = await call(operation, { query: "?apiKey=ck_secret&limit=5&sort=name&x-trace=1" });
      const where = `${operation.method} ${operation.template}: ${res.text}`;
      expect(res.status, where).toBe(400);
      const unknown = (detailsOf(res) ?? [])
        .filter((d) => d.message.startsWith("Unknown query parameter"))
        .map((d) => d.field);
      expect(unknown, where).toEqual(expect.arrayContaining(["apiKey", "x-trace"]));
    }
  });

  it("leave a single-resource read that takes none as it was without them", async () => {
    const path = `/api/v1/fixtures/${api.fixtureId}`;
    expect((await api.read(path)).status).toBe(200);
    expectError(await api.read(`${path}?apiKey=${apiKey}`), 400, "VALIDATION_FAILED");
  });
});

describe("a method the path does not have", () => {
  it("is 405 METHOD_NOT_ALLOWED with Allow listing the path's methods, HEAD beside GET", async () => {
    const operations = implementedOperations();
    const methodsAt = (path: string) =>
      operations
        .filter((o) => new RegExp(`^${o.template.replace(/\{\w+\}/g, "[^/]+")}$`).test(path))
        .map((o) => o.method);
    for (const path of new Set(operations.map((o) => pathOf(o.template)))) {
      const allowed = methodsAt(path);
      const expected = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].filter(
        (m) => allowed.includes(m) || (m === "HEAD" && allowed.includes("GET")),
      );
      for (const method of METHODS.filter((m) => !allowed.includes(m))) {
        const res = await api.api.call(method, path, { token: api.admin.token });
        expectError(res, 405, "METHOD_NOT_ALLOWED");
        expect(res.headers.get("allow"), `${method} ${path}`).toBe(expected.join(", "));
      }
    }
  });

  it("answers HEAD wherever GET is, and 405 where it is not", async () => {
    const head = (path: string) =>
      api.app.request(path, { method: "HEAD", headers: { authorization: `Bearer ${api.admin.token}` } });
    const health = await head("/api/v1/health");
    expect([health.status, await health.text()]).toEqual([200, ""]);
    const refused = await head("/api/v1/submitter-access-requests");
    expect([refused.status, refused.headers.get("allow"), refused.headers.get("api-version")]).toEqual([
      405,
      "POST",
      "v1",
    ]);
  });

  it("leaves unknown paths and other versions 404", async () => {
    expectError(await api.api.call("POST", "/api/v1/no-such-thing"), 404, "NOT_FOUND");
    expectError(await api.api.call("POST", "/api/v2/fixtures"), 404, "UNSUPPORTED_API_VERSION");
  });
});

describe("request bodies", () => {
  it("sent with a Content-Type the operation does not take are 415 UNSUPPORTED_MEDIA_TYPE, multipart uploads included", async () => {
    const taking = implementedOperations().filter((o) => o.requestBody);
    expect(taking.map((o) => `${o.method} ${o.template}`)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/submissions",
        "POST /api/v1/submissions/uploads",
        "DELETE /api/v1/account",
      ]),
    );
    for (const operation of taking) {
      const res = await call(operation, { body: '{"competitionId": "ipl"}', type: "text/plain" });
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    }
  });

  it("sent to a write that takes none are 422 VALIDATION_FAILED naming `body`", async () => {
    const bodiless = implementedOperations().filter((o) => o.method !== "GET" && !o.requestBody);
    expect(bodiless.map((o) => `${o.method} ${o.template}`).sort()).toEqual([
      "DELETE /api/v1/admin/api-consumers/{consumerId}/keys/{keyId}",
      "POST /api/v1/admin/api-consumers/{consumerId}/keys/rotate",
      "POST /api/v1/admin/users/{userId}/submitter-access/rejection",
      "POST /api/v1/batches/{batchReference}/publication",
    ]);
    for (const operation of bodiless)
      for (const [body, type] of [
        ["{}", "application/json"],
        ["reason=none", "application/x-www-form-urlencoded"],
      ] as const) {
        const res = await call(operation, { body, type });
        expectError(res, 422, "VALIDATION_FAILED");
        expect(detailsOf(res)).toEqual([{ code: "INVALID_FIELD", message: expect.any(String), field: "body" }]);
      }
  });
});
