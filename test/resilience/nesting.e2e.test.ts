import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsTooDeep, parseJson } from "../../src/bounded-json.js";
import { expectError } from "../support/account-api.js";
import { openSubmissionApi, type SubmissionApi, submission, validEvents } from "../support/submissions.js";

/*
 * JSON nested deeper than any walk of it can follow used to overflow the stack (a 500 from
 * `[`×8000 on POST /submissions). Every body and file is now measured before it is parsed:
 * a JSON body nesting deeper than MAX_JSON_DEPTH is 400 INVALID_JSON on every operation that
 * takes one, before authentication; an uploaded file 422; one at the bound is judged as usual.
 */

const DEEP = 8000;
const deepArrays = `${"[".repeat(DEEP)}1${"]".repeat(DEEP)}`;
const deepObjects = `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`;
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

let api: SubmissionApi;
beforeAll(async () => {
  api = await openSubmissionApi();
}, 60_000);
afterAll(async () => api?.close());

/** Every operation with a JSON request body, its path parameters filled in. */
function jsonBodyOperations() {
  const found: { method: string; path: string }[] = [];
  for (const [template, item] of Object.entries(api.api.document.paths ?? {}))
    for (const [method, operation] of Object.entries(item as Record<string, { requestBody?: { content?: object } }>))
      if (operation.requestBody?.content && "application/json" in operation.requestBody.content)
        found.push({ method: method.toUpperCase(), path: template.replace(/\{[^}]+\}/g, "1") });
  return found;
}

describe("a JSON body nested too deep", () => {
  it("is 400 INVALID_JSON naming the bound on every operation that takes a JSON body, whoever sends it", async () => {
    const operations = jsonBodyOperations();
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(["POST /api/v1/submissions", "PUT /api/v1/submissions/events/1"]),
    );
    for (const { method, path } of operations)
      for (const body of [deepArrays, deepObjects])
        for (const token of [api.admin.token, undefined]) {
          const res = await api.api.call(method, path, { token, body });
          expectError(res, 400, "INVALID_JSON");
          expect((res.body as { error: { message: string } }).error.message).toContain(`${MAX_JSON_DEPTH} levels`);
        }
  });

  it("is judged as usual at the bound, refused one level past it", async () => {
    const atBound = await api.submit(nested(MAX_JSON_DEPTH));
    expectError(atBound, 422, "VALIDATION_FAILED");
    expectError(await api.submit(nested(MAX_JSON_DEPTH + 1)), 400, "INVALID_JSON");
  });

  it("changes nothing", async () => {
    const fixture = await api.aFixtureToSubmitTo();
    const body = JSON.stringify(submission(fixture, validEvents(fixture, 2)));
    expectError(await api.submit(body.replace('"events":', `"deep":${deepArrays},"events":`)), 400, "INVALID_JSON");
    expect(await api.publicEvents(fixture.id)).toEqual([]);
  });
});

describe("an uploaded file nested too deep", () => {
  it("is 422 for a JSON file and for a CSV wickets cell, never a 500", async () => {
    const file = await api.upload(deepArrays, "deep.json", "application/json");
    expectError(file, 422, "VALIDATION_FAILED");
    expect(JSON.stringify(file.body)).toContain(`${MAX_JSON_DEPTH} levels`);

    const fixture = await api.aFixtureToSubmitTo();
    const [event] = validEvents(fixture, 1);
    const header = "fixtureId,schemaVersion,eventId,wickets";
    const row = [fixture.id, "1.0", event?.eventId, `"${deepArrays}"`].join(",");
    const csv = await api.upload(`${header}\n${row}\n`, "deep.csv", "text/csv");
    expect(csv.status, csv.text).toBe(422);
  });
});

describe("nestsTooDeep", () => {
  it("counts arrays and objects, not brackets inside strings", () => {
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    const quoted = JSON.stringify({ text: "[".repeat(DEEP), escaped: `\\"${"{".repeat(DEEP)}` });
    expect(nestsTooDeep(quoted)).toBe(false);
    expect(parseJson(quoted)).toEqual(JSON.parse(quoted));
    expect(() => parseJson(deepObjects)).toThrow(SyntaxError);
  });
});
