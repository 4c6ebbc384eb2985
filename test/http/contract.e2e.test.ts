import { createRoute, z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BatchValidator } from "../../src/batches/validator.js";
import { implemented, type Router } from "../../src/http/api.js";
import { DOMAIN_STATUS, ERROR_STATUS } from "../../src/http/errors.js";
import { createLogger } from "../../src/http/logging.js";
import { headerRefs } from "../../src/http/response-headers.js";
import { apiRoutes } from "../../src/http/routes.js";
import { WEB_ROUTES } from "../../src/web/routes.js";
import type { Person } from "../support/account-api.js";
import { testApp } from "../support/app.js";
import { aPackage, aPackageOf, packageEventOf, sendBatch } from "../support/batches.js";
import { contractClient } from "../support/contract.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import { aPublishedRelease } from "../support/releases.js";
import {
  openSubmissionApi,
  type SubmissionApi,
  type SubmittedEvent,
  submission,
  validEvents,
} from "../support/submissions.js";

type Operation = {
  "x-implementation-status": string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, unknown>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const documentOf = (app: Router) => contractClient(app).document as unknown as Document;
const operationsOf = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ path, method, operation })),
  );

describe("the published contract and the running routes", () => {
  const { app } = testApp();
  const documented = operationsOf(documentOf(app)).map(({ path, method, operation }) => ({
    key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
    status: operation["x-implementation-status"],
  }));
  // The web UI's pages and forms are for people, not operations (but for `/`, which negotiates): outside the contract and /api.
  const pages = new Set<string>(WEB_ROUTES);
  const routes = app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`);
  const registered = new Set(routes.filter((route) => !pages.has(route)));

  it("serves every page and form of the web UI outside /api and outside the document", () => {
    expect([...pages].filter((page) => !routes.includes(page))).toEqual([]);
    expect(WEB_ROUTES.filter((route) => route.split(" ")[1]?.startsWith("/api"))).toEqual([]);
    expect(documented.filter((d) => pages.has(d.key))).toEqual([]);
  });

  it("documents every registered route as an implemented operation", () => {
    const implementedOperations = new Set(documented.filter((d) => d.status === "implemented").map((d) => d.key));
    expect([...registered].filter((route) => !implementedOperations.has(route))).toEqual([]);
  });

  it("registers every operation documented as implemented", () => {
    const missing = documented.filter((d) => d.status === "implemented" && !registered.has(d.key));
    expect(missing).toEqual([]);
  });

  it("marks every operation implemented", () => {
    expect(documented.filter((d) => d.status !== "implemented")).toEqual([]);
  });

  it("shows each error answer with an example of its own: a code that carries its status, and what it means", () => {
    const carries = (code: string, status: number) =>
      (ERROR_STATUS as Record<string, number>)[code] === status ||
      (DOMAIN_STATUS as Record<string, number>)[code] === status;
    const examples = operationsOf(documentOf(app)).flatMap(({ path, method, operation }) =>
      Object.entries(operation.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => {
          const json = (
            response as { content?: Record<string, { example?: { error: { code: string; message: string } } }> }
          ).content?.["application/json"];
          return { at: `${method} ${path} ${status}`, status: Number(status), error: json?.example?.error };
        }),
    );
    expect(examples.length).toBeGreaterThan(400);
    const wrong = examples.filter(
      ({ status, error }) => !error || !carries(error.code, status) || error.message.length < 10,
    );
    expect(wrong).toEqual([]);
    const codesOf = (status: number) => new Set(examples.filter((e) => e.status === status).map((e) => e.error?.code));
    expect(codesOf(400)).toEqual(new Set(["VALIDATION_FAILED"]));
    expect(codesOf(401)).toEqual(new Set(["UNAUTHORIZED", "API_KEY_UNAUTHORIZED"]));
    expect(codesOf(429)).toEqual(new Set(["RATE_LIMIT_EXCEEDED"]));
  });
});

describe("the published document", () => {
  const document = documentOf(testApp().app);
  const implementedOperations = operationsOf(document).filter(
    (o) => o.operation["x-implementation-status"] === "implemented",
  );

  it("gives every operation a description and explicit security", () => {
    for (const { path, method, operation } of operationsOf(document)) {
      expect(operation.description, `${method} ${path}`).toEqual(expect.any(String));
      expect(operation.security, `${method} ${path}`).toBeInstanceOf(Array);
    }
  });

  it("lists every error code the server has, and only those, as Error.code", () => {
    const error = document.components.schemas.Error as { properties: { error: { properties: { code: object } } } };
    expect(error.properties.error.properties.code).toMatchObject({ type: "string", enum: Object.keys(ERROR_STATUS) });
  });

  it("documents 500 on every implemented operation, 413 on every write and 415 wherever a body is taken", () => {
    for (const { path, method, operation } of implementedOperations) {
      const statuses = Object.keys(operation.responses);
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["400", "500"]));
      if (method !== "get") expect(statuses, `${method} ${path}`).toContain("413");
      if (operation.requestBody) expect(statuses, `${method} ${path}`).toContain("415");
    }
  });
});

/** Routes that answer what the document does not say, to prove the checker refuses them. */
function registerLiars(app: Router) {
  const route = (path: string, responses: Parameters<typeof createRoute>[0]["responses"]) =>
    createRoute({ method: "get", path, operationId: path, description: path, security: [], ...implemented, responses });
  const json = { "application/json": { schema: z.object({}) } };
  app.openapi(route("/api/v1/liar/header", { 200: { description: "ok", content: json } }), (c) =>
    c.json({}, 200, { "X-Debug": "on" }),
  );
  app.openapi(
    route("/api/v1/liar/status", { 201: { description: "created", content: json } }),
    (c) => c.json({}, 200) as never,
  );
  app.openapi(route("/api/v1/liar/media-type", { 200: { description: "ok", content: json } }), (c) =>
    c.body("a,b\r\n", 200, { "Content-Type": "text/csv" }),
  );
  app.openapi(
    route("/api/v1/liar/required-header", { 200: { description: "ok", headers: headerRefs("ETag"), content: json } }),
    (c) => c.json({}, 200),
  );
}

describe("the contract checker", () => {
  const api = contractClient(testApp([...apiRoutes, registerLiars]).app);

  it("fails an answer carrying a header its operation does not declare", async () => {
    await expect(api.get("/api/v1/liar/header")).rejects.toThrow(/sends undocumented headers.*x-debug/s);
  });

  it("fails an answer with a status its operation does not document", async () => {
    await expect(api.get("/api/v1/liar/status")).rejects.toThrow(/does not document status 200/);
  });

  it("fails an answer of a media type its operation does not document", async () => {
    await expect(api.get("/api/v1/liar/media-type")).rejects.toThrow(/sends text\/csv/);
  });

  it("fails an answer without a header its operation requires", async () => {
    await expect(api.get("/api/v1/liar/required-header")).rejects.toThrow(/does not send the required header etag/);
  });
});

/**
 * Every operation driven through the real app over a real database, happy and refused,
 * each answer checked against the document: its status listed for the operation, every
 * header it carries declared for that status.
 */
/** Bodies of the operations that check theirs before anything else. */
const EVALUATE_BODY = {
  type: "leaderboard",
  metric: "most_runs",
  scope: { type: "competition", competition: { name: "x" } },
};
const VALID_BODIES: Record<string, string> = {
  "/api/v1/query-definitions/evaluate": JSON.stringify(EVALUATE_BODY),
  "/api/v1/natural-language-queries": JSON.stringify({ question: "most runs in the IPL" }),
};

describe("every operation, driven through the app", () => {
  let api: SubmissionApi;
  let ids: Record<string, string>;
  let viewer: Person;
  let apiKey: string;
  let fixture: FixtureBuilder;
  const document = documentOf(testApp().app);
  const implementedOperations = operationsOf(document).filter(
    (o) => o.operation["x-implementation-status"] === "implemented",
  );
  const schemesOf = (operation: Operation) => (operation.security ?? []).flatMap((s) => Object.keys(s));

  beforeAll(async () => {
    api = await openSubmissionApi();
    viewer = await api.signIn();
    fixture = await api.aFixtureToSubmitTo();
    const events = validEvents(fixture, 12);
    const submitted = await api.submit(submission(fixture, events));
    expect(submitted.status).toBe(201);
    const issued = await api.api.post(
      "/api/v1/admin/api-consumers",
      { name: "Contract XI" },
      { token: api.admin.token },
    );
    const consumer = (issued.body as { data: { consumerId: number; apiKey: string } }).data;
    apiKey = consumer.apiKey;
    const batch = await sendBatch(api.api, aPackage(fixture.season.competition), { token: api.admin.token });
    const innings = fixture.innings[0];
    const jobId = await aPublishedRelease(api, api.admin.token, "1.0.0");
    ids = {
      version: "1.0.0",
      jobId,
      batchReference: (batch.body as { data: { batchReference: string } }).data.batchReference,
      fixtureId: fixture.id,
      eventId: events[0]?.eventId as string,
      submissionId: (submitted.body as { data: { submissionId: string } }).data.submissionId,
      statisticId: "innings-0",
      participantId: innings?.batting.players[0]?.id as string,
      competitionId: fixture.season.competition.id,
      seasonId: fixture.season.id,
      competitorId: fixture.home.id,
      userId: viewer.id,
      consumerId: String(consumer.consumerId),
      keyId: "1",
      file: "swagger-ui.css",
    };
    await api.world.catchUp();
  }, 120_000);
  afterAll(() => api?.close());

  /** The path of an operation with every parameter an id the world holds. */
  const pathOf = (template: string, names: Record<string, string> = ids) =>
    template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(names[name] ?? "x"));

  /** The credentials an operation's security asks for: a bearer token, a key where one is required, else none. */
  const credentialsOf = (operation: Operation): Record<string, string> => {
    const schemes = schemesOf(operation);
    if (schemes.includes("bearerAuth")) return { authorization: `Bearer ${api.admin.token}` };
    if (schemes.includes("apiKey") && !(operation.security ?? []).some((s) => Object.keys(s).length === 0))
      return { "x-api-key": apiKey };
    return {};
  };

  /** The query an operation cannot answer without. */
  const requiredQuery = (path: string) =>
    path === "/api/v1/statistics/leaderboards"
      ? `?scope=season&seasonId=${ids.seasonId}&metric=most_runs`
      : path.startsWith("/api/v1/provenance/participants/")
        ? "?part=batting"
        : path === "/api/v1/weather"
          ? "?latitude=18.9389&longitude=72.8258&date=2024-04-07"
          : "";

  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    api.api.call(method.toUpperCase(), path, { headers, ...(body === undefined ? {} : { body }) });

  it("answers every implemented operation with a success it documents", async () => {
    const participantStatistics = await api.api.get(`/api/v1/participants/${ids.participantId}/statistics`);
    const aggregate = (participantStatistics.body as { data: { statisticId: string }[] }).data[0];
    for (const { path, operation } of implementedOperations.filter((o) => o.method === "get")) {
      const names = path.includes("/participants/{participantId}/statistics/")
        ? { ...ids, statisticId: aggregate?.statisticId ?? "" }
        : ids;
      const res = await send("get", `${pathOf(path, names)}${requiredQuery(path)}`, credentialsOf(operation));
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }

    const admin = { token: api.admin.token };
    const users = "/api/v1/admin/users";
    const requester = await api.signIn();
    const rejected = await api.signIn();
    const promoted = await api.signIn();
    for (const person of [requester, rejected])
      expect(
        (await api.api.post("/api/v1/submitter-access-requests", { competitionId: ids.competitionId }, person)).status,
      ).toBe(200);
    expect((await api.api.patch(`${users}/${requester.id}/submitter-access`, { approved: true }, admin)).status).toBe(
      200,
    );
    expect((await api.api.post(`${users}/${rejected.id}/submitter-access/rejection`, undefined, admin)).status).toBe(
      200,
    );
    expect((await api.api.patch(`${users}/${promoted.id}/role`, { role: "admin" }, admin)).status).toBe(200);

    const rotated = await api.api.post("/api/v1/admin/api-consumers", { name: "Rotated XI" }, admin);
    const consumer = `/api/v1/admin/api-consumers/${(rotated.body as { data: { consumerId: number } }).data.consumerId}`;
    expect((await api.api.post(`${consumer}/keys/rotate`, undefined, admin)).status).toBe(200);
    expect((await api.api.delete(`${consumer}/keys/2`, undefined, admin)).status).toBe(204);

    const another = await api.aFixtureToSubmitTo();
    const file = JSON.stringify(submission(another, validEvents(another, 2)));
    expect((await api.upload(file, "two.json", "application/json")).status).toBe(201);
    const history = await api.api.get(`/api/v1/submissions/events/${ids.eventId}/history`, admin);
    const { recorded } = (history.body as { data: { recorded: { state: Record<string, unknown> } } }).data;
    const { eventId: _e, sequenceNumber: _s, ...event } = recorded.state;
    const correction = { fixtureId: ids.fixtureId, schemaVersion: "1.0", reason: "contract", event };
    expect((await api.api.put(`/api/v1/submissions/events/${ids.eventId}`, correction, admin)).status).toBe(200);
    expect((await api.api.delete("/api/v1/account", { confirmation: "DELETE" }, viewer)).status).toBe(204);

    // a batch the new submitter sends, validated, then reviewed and published by the administrator
    const sent = await sendBatch(
      api.api,
      aPackageOf(fixture, validEvents(fixture, 2, { ordinal: 1 }), { ordinal: 1 }),
      {
        token: requester.token,
      },
    );
    const batch = `/api/v1/batches/${(sent.body as { data: { batchReference: string } }).data.batchReference}`;
    await new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") }).drain();
    await api.world.catchUp();
    // and one naming a striker nobody is called, staged until the administrator maps it
    const unknownStriker = aPackageOf(fixture, validEvents(fixture, 1, { ordinal: 1 }), { ordinal: 1 });
    const [staged] = (unknownStriker.fixtures as unknown as { innings: { events: Record<string, unknown>[] }[] }[])
      .flatMap((f) => f.innings)
      .flatMap((i) => i.events);
    if (staged) staged.striker = { context: { name: "Nobody Atall" } };
    const stagedSent = await sendBatch(api.api, unknownStriker, { token: requester.token });
    // and one whose only delivery is rejected, replaced by its sender
    const [wrong] = validEvents(fixture, 1, { ordinal: 1 });
    const misLabelled = aPackageOf(fixture, [{ ...(wrong as SubmittedEvent), ballNumber: "9.1" }], { ordinal: 1 });
    const rejectedSent = await sendBatch(api.api, misLabelled, { token: requester.token });
    // and one of a fixture the competition does not have, made by the administrator
    const unknownFixture = {
      ...aPackageOf(fixture, validEvents(fixture, 1)),
      season: { context: { name: fixture.season.label } },
    };
    const [proposed] = unknownFixture.fixtures as unknown as Record<string, unknown>[];
    if (proposed) {
      proposed.sourceId = "cricsheet:fixture:contract-canonical";
      proposed.context = { ...(proposed.context as object), date: "2031-01-01" };
      proposed.proposal = { ...(proposed.proposal as object), endDate: "2031-01-01" };
    }
    const proposedSent = await sendBatch(api.api, unknownFixture, { token: requester.token });
    await new BatchValidator({ sql: api.db.sql, store: api.world.store, logger: createLogger("silent") }).drain();
    await api.world.catchUp();
    const mapping = {
      referencePath: "fixtures.0.innings.0.events.0.striker",
      candidate: `app:participant:${fixture.innings[1]?.batting.players[0]?.id}`,
    };
    const stagedBatch = (stagedSent.body as { data: { batchReference: string } }).data.batchReference;
    const mapped = await api.api.post(`/api/v1/batches/${stagedBatch}/mappings`, { mappings: [mapping] }, admin);
    expect(mapped.status, mapped.text).toBe(202);
    const rejectedBatch = (rejectedSent.body as { data: { batchReference: string } }).data.batchReference;
    const replacement = { ordinal: 0, event: packageEventOf(fixture, wrong as SubmittedEvent) };
    const resubmitted = await api.api.post(
      `/api/v1/batches/${rejectedBatch}/resubmissions`,
      { items: [replacement] },
      requester,
    );
    expect(resubmitted.status, resubmitted.text).toBe(202);
    const proposedBatch = (proposedSent.body as { data: { batchReference: string } }).data.batchReference;
    const made = await api.api.post(
      `/api/v1/batches/${proposedBatch}/canonical-fixtures`,
      { referencePath: "fixtures.0" },
      admin,
    );
    expect(made.status, made.text).toBe(201);
    const approval = { decision: "approved", items: "all", reason: "contract" };
    expect((await api.api.post(`${batch}/reviews`, approval, admin)).status).toBe(200);
    expect((await api.api.post(`${batch}/publication`, undefined, admin)).status).toBe(200);

    const venue = `/api/v1/admin/venues/${fixture.venue?.id}`;
    const renamed = await api.api.patch(venue, { name: "Contract Ground", city: "Testville" }, admin);
    expect(renamed.status, renamed.text).toBe(200);

    const question = await api.api.post("/api/v1/natural-language-queries", { question: "most runs" });
    expect(question.status, question.text).toBe(200);
    const evaluated = await api.api.post("/api/v1/query-definitions/evaluate", EVALUATE_BODY);
    expect(evaluated.status, evaluated.text).toBe(200);

    const succeeded = new Set(api.api.answered.filter((a) => a.status < 400).map((a) => a.operation));
    const missing = implementedOperations.map((o) => `${o.method} ${o.path}`).filter((key) => !succeeded.has(key));
    expect(missing).toEqual([]);
  });

  it("answers a request without credentials, or with a key that is not one, as each operation's security says", async () => {
    for (const { path, method, operation } of implementedOperations) {
      const schemes = schemesOf(operation);
      const anonymous = await send(method, pathOf(path), {});
      if (schemes.includes("bearerAuth")) {
        expect(anonymous.status, path).toBe(401);
        expect(anonymous.headers.get("www-authenticate"), path).toMatch(/^Bearer/);
      } else if (schemes.includes("apiKey")) {
        const unknownKey = await send(method, pathOf(path), { "x-api-key": "not-a-key" });
        expect(unknownKey.status, path).toBe(401);
        expect(unknownKey.headers.get("www-authenticate"), path).toBe("ApiKey");
        const keyRequired = !(operation.security ?? []).some((s) => Object.keys(s).length === 0);
        expect(anonymous.status === 401, path).toBe(keyRequired);
      } else {
        expect(anonymous.status, path).not.toBe(401);
      }
    }
  });

  it("answers an unknown query parameter with 400 and a body that is not JSON with 415, both documented", async () => {
    // Ids that name nothing and empty bodies: nothing is changed whichever check answers first.
    const absent = Object.fromEntries(Object.keys(ids).map((name) => [name, name.endsWith("Id") ? "999999" : "x"]));
    for (const { path, method, operation } of implementedOperations) {
      const credentials = credentialsOf(operation);
      const json = operation.requestBody?.content["application/json"] !== undefined;
      const body = method === "get" ? undefined : json ? "{}" : "";
      const headers = { ...credentials, ...(json ? { "content-type": "application/json" } : {}) };
      const unknownParameter = await send(method, `${pathOf(path, absent)}?unknownParameter=1`, headers, body);
      expect(unknownParameter.status, path).toBe(400);
      if (!json) continue;
      const malformed = await send(method, pathOf(path), { ...credentials, "content-type": "application/json" }, "{");
      expect(malformed.status, path).toBe(400);
      expect((malformed.body as { error: { code: string } }).error.code, path).toBe("INVALID_JSON");
      const text = await send(method, pathOf(path), { ...credentials, "content-type": "text/plain" }, "{}");
      expect(text.status, path).toBe(415);
    }
  });

  it("answers every write with a body over 1 MB with 413", async () => {
    const big = JSON.stringify({ padding: "x".repeat(1024 * 1024) });
    for (const { path, method } of implementedOperations.filter((o) => o.method !== "get")) {
      const res = await send(method, pathOf(path), { "content-type": "application/json" }, big);
      expect(res.status, path).toBe(413);
    }
  });

  it("answers an unexpected failure with the 500 every operation documents", async () => {
    // An app without its database: every operation but health and the documentation needs it.
    const broken = contractClient(testApp().app);
    // Readiness without a database reports it as not used.
    // The index at `/` (an API client's answer) holds only links.
    const withoutData = ["/", "/api/v1/health", "/api/v1/ready", "/openapi.yaml", "/docs", "/docs/assets/{file}"];
    for (const { path, method, operation } of implementedOperations) {
      const headers = credentialsOf(operation);
      // A body the operation takes, so it gets as far as needing the database.
      const body = method === "get" ? undefined : (VALID_BODIES[path] ?? "{}");
      const res = await broken.request(`${pathOf(path)}${requiredQuery(path)}`, {
        method: method.toUpperCase(),
        headers: { ...headers, "content-type": "application/json" },
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status, path).toBe(withoutData.includes(path) ? 200 : 500);
      if (res.status === 500)
        expect(res.body).toEqual({ error: { code: "INTERNAL_SERVER_ERROR", message: expect.any(String) } });
    }
  });
});
