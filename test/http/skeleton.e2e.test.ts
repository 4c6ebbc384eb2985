import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { implemented, type Router } from "../../src/http/api.js";
import { errorResponses } from "../../src/http/errors.js";
import { apiRoutes } from "../../src/http/routes.js";
import { testApp } from "../support/app.js";
import { contractClient } from "../support/contract.js";

/** Routes that exist only in this test, to drive the shared body, validation and error handling. */
function registerProbes(app: Router) {
  const body = z.strictObject({
    name: z.string().min(1),
    events: z.array(z.strictObject({ runs: z.strictObject({ offBat: z.number().int().min(0) }) })).max(1000),
  });
  app.openapi(
    createRoute({
      method: "post",
      path: "/api/v1/probe",
      operationId: "probe",
      ...implemented,
      request: {
        query: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
        body: { content: { "application/json": { schema: body } }, required: true },
      },
      responses: {
        200: { description: "echo", content: { "application/json": { schema: z.object({ received: z.number() }) } } },
        ...errorResponses(400, 413, 422, 500),
      },
    }),
    (c) => c.json({ received: c.req.valid("json").events.length }, 200),
  );
  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/probe/failure",
      operationId: "probeFailure",
      ...implemented,
      responses: { 200: { description: "never" }, ...errorResponses(500) },
    }),
    () => {
      throw new Error("database password is hunter2");
    },
  );
}

const withProbes = () => {
  const t = testApp([...apiRoutes, registerProbes]);
  return { ...t, api: contractClient(t.app) };
};

describe("health", () => {
  it("answers with status, service and a current timestamp, marked API-Version v1", async () => {
    const { api } = withProbes();
    const res = await api.get("/api/v1/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("API-Version")).toBe("v1");
    expect(res.body).toMatchObject({ status: "ok", service: "cricket-analytics-service" });
    const timestamp = Date.parse((res.body as { timestamp: string }).timestamp);
    expect(Math.abs(Date.now() - timestamp)).toBeLessThan(5000);
  });
});

describe("versioning", () => {
  it.each(["/api/v2/health", "/api/v2", "/api/v10/fixtures?x=1"])(
    "answers %s with UNSUPPORTED_API_VERSION pointing to /api/v1",
    async (path) => {
      const { api } = withProbes();
      const res = await api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        error: { code: "UNSUPPORTED_API_VERSION", message: expect.stringContaining("/api/v1") },
      });
    },
  );

  it("does not treat a path without a version as an alias", async () => {
    const { api } = withProbes();
    const res = await api.get("/health");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    expect(res.headers.get("API-Version")).toBeNull();
  });

  it("marks unknown /api/v1 paths NOT_FOUND, still with API-Version", async () => {
    const { api } = withProbes();
    const res = await api.get("/api/v1/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: "NOT_FOUND" } });
    expect(res.headers.get("API-Version")).toBe("v1");
  });
});

describe("request bodies and validation", () => {
  it("answers malformed JSON with 400 INVALID_JSON", async () => {
    const { api } = withProbes();
    const res = await api.post("/api/v1/probe", '{"name": "x", "events": [');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_JSON", message: expect.any(String) } });
    expect(res.headers.get("API-Version")).toBe("v1");
  });

  it("answers an invalid body with 422 VALIDATION_FAILED naming every problem by dotted path, within its event", async () => {
    const { api } = withProbes();
    const res = await api.post("/api/v1/probe", {
      name: "",
      events: [{ runs: { offBat: 1 } }, { runs: { offBat: -1 } }, { runs: { offBat: 2, extra: true } }],
      role: "admin",
    });
    expect(res.status).toBe(422);
    const error = (res.body as { error: { code: string; details: { field: string; eventIndex?: number }[] } }).error;
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details.map((d) => [d.field, d.eventIndex])).toEqual(
      expect.arrayContaining([
        ["name", undefined],
        ["runs.offBat", 1],
        ["runs.extra", 2],
        ["role", undefined],
      ]),
    );
  });

  it("answers a valid body holding text the database cannot store with 422, naming each place", async () => {
    const { api } = withProbes();
    for (const name of ["a\u0000b", "\ud83d", "tail \udc00"]) {
      const res = await api.post("/api/v1/probe", { name, events: [] });
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect(res.body).toMatchObject({ error: { code: "VALIDATION_FAILED", details: [{ field: "name" }] } });
    }
    // A whole pair is a character like any other.
    expect((await api.post("/api/v1/probe", { name: "\ud83c\udfcf", events: [] })).status).toBe(200);
  });

  it("answers an invalid query parameter with 400 VALIDATION_FAILED naming it", async () => {
    const { api } = withProbes();
    const res = await api.post("/api/v1/probe?limit=0", { name: "x", events: [] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: "VALIDATION_FAILED", details: [{ field: "limit" }] } });
  });

  it("accepts a body of exactly 1 MB and refuses one byte more with 413, counting bytes received", async () => {
    const { api } = withProbes();
    const json = JSON.stringify({ name: "x", events: [] });
    const padded = (size: number) => `${json.slice(0, -1)}${" ".repeat(size - json.length)}}`;
    expect((await api.post("/api/v1/probe", padded(1024 * 1024))).status).toBe(200);

    const tooLarge = await api.post("/api/v1/probe", padded(1024 * 1024 + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });

    // A streamed body has no Content-Length to trust: the limit still holds.
    const bytes = new TextEncoder().encode(padded(1024 * 1024 + 10));
    const stream = new ReadableStream({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.slice(at, at + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await api.request("/api/v1/probe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});

describe("unexpected failures and logging", () => {
  it("answers 500 INTERNAL_SERVER_ERROR without detail, keeping the detail in the log", async () => {
    const { api, rawLogs } = withProbes();
    const res = await api.get("/api/v1/probe/failure");
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: "INTERNAL_SERVER_ERROR", message: "An unexpected error occurred" } });
    expect(res.text).not.toContain("hunter2");
    expect(rawLogs()).toContain("hunter2");
  });

  it("logs each request as structured JSON without Authorization or X-API-Key values", async () => {
    const { api, logs, rawLogs } = withProbes();
    await api.get("/api/v1/health", {
      headers: { authorization: "Bearer eyJ.secret-token", "x-api-key": "ck_live_secret123" },
    });
    expect(logs()).toContainEqual(
      expect.objectContaining({
        msg: "request",
        method: "GET",
        path: "/api/v1/health",
        status: 200,
        requestId: expect.any(String),
      }),
    );
    expect(rawLogs()).not.toContain("secret-token");
    expect(rawLogs()).not.toContain("ck_live_secret123");
  });
});

describe("documentation", () => {
  it("serves the OpenAPI 3.1 document as YAML with every operation's implementation status", async () => {
    const { api } = withProbes();
    const res = await api.get("/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("yaml");
    const document = parse(res.text);
    expect(document.openapi).toBe("3.1.0");
    const operations = Object.values(document.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
      (p) => Object.values(p),
    );
    expect(operations.length).toBeGreaterThan(60);
    for (const operation of operations) expect(operation["x-implementation-status"]).toBe("implemented");
  });

  it("renders an interactive reference at /docs from local assets", async () => {
    const { api } = withProbes();
    const page = await api.get("/docs");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/openapi.yaml");
    for (const asset of page.text.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)) {
      const res = await api.get(asset[1] as string);
      expect(res.status, asset[1]).toBe(200);
    }
    expect((await api.get("/docs/assets/..%2Fpackage.json")).status).toBe(404);
  });
});
