import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { SAMPLE_DIRECTORY } from "../../src/ingest/samples.js";
import { type AccountApi, openAccountApi } from "../support/account-api.js";

/**
 * "Try it out" in /docs, as a newcomer presses it on a fresh embedded server: every public
 * read, sent with the values the reference fills in (each parameter's example), answers 200
 * on the sample matches, and every collection holds something.
 */
type Parameter = { name: string; in: string; example?: unknown; schema?: { example?: unknown } };
type Operation = { parameters?: Parameter[]; security?: Record<string, unknown>[] };

let a: AccountApi;
let operations: { path: string; operation: Operation }[];

beforeAll(async () => {
  a = await openAccountApi();
  const imported = await importCricsheet(a.world.store, [SAMPLE_DIRECTORY]);
  expect(imported.failed).toEqual([]);
  await a.world.catchUp();
  const document = (await a.api.get("/openapi.yaml")).text;
  const { parse } = await import("yaml");
  const paths = parse(document).paths as Record<string, Record<string, Operation>>;
  operations = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method, operation]) => method === "get" && isPublic(path, operation))
      .map(([, operation]) => ({ path, operation })),
  );
}, 120_000);
afterAll(() => a?.close());

/** No credential needed: neither a bearer token nor a key is required. */
const isPublic = (path: string, operation: Operation) =>
  !path.startsWith("/api/v1/consumer/") &&
  (operation.security ?? []).some((requirement) => Object.keys(requirement).length === 0);

/** Releases exist only once an administrator publishes one: their example version is 404 on a fresh server. */
const NEEDS_A_RELEASE = /^\/api\/v1\/dataset-releases\/\{version\}/;

const exampleOf = (p: Parameter) => p.example ?? p.schema?.example;

function requestOf(path: string, { parameters = [] }: Operation): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const example = exampleOf(parameters.find((p) => p.in === "path" && p.name === name) ?? { name, in: "path" });
    expect(example, `${path}: {${name}} has no example`).toBeDefined();
    return encodeURIComponent(String(example));
  });
  const query = parameters
    .filter((p) => p.in === "query" && exampleOf(p) !== undefined)
    .map((p) => `${p.name}=${encodeURIComponent(String(exampleOf(p)))}`);
  return query.length > 0 ? `${filled}?${query.join("&")}` : filled;
}

describe("the reference's examples", () => {
  it("are real: every public read, sent with them, answers 200, and every collection holds something", async () => {
    expect(operations.length).toBeGreaterThan(20);
    const failures: string[] = [];
    for (const { path, operation } of operations) {
      if (NEEDS_A_RELEASE.test(path)) continue;
      const target = requestOf(path, operation);
      const res = await a.api.get(target);
      if (res.status !== 200) failures.push(`${target}: ${res.status} ${res.text.slice(0, 200)}`);
      else {
        const data = (res.body as { data?: unknown } | undefined)?.data;
        if (Array.isArray(data) && data.length === 0) failures.push(`${target}: an empty collection`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("leave the cursor without an example: a made-up one is a 400", () => {
    const cursors = operations.flatMap(({ operation }) =>
      (operation.parameters ?? []).filter((p) => p.name === "cursor"),
    );
    expect(cursors.length).toBeGreaterThan(5);
    expect(cursors.filter((p) => exampleOf(p) !== undefined)).toEqual([]);
  });
});
