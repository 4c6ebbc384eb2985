import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../../src/http/app.js";
import { ERROR_STATUS, type ErrorCode } from "../../src/http/errors.js";
import { createLogger } from "../../src/http/logging.js";
import { openApiDocument } from "../../src/http/openapi.js";
import { apiRoutes } from "../../src/http/routes.js";
import { contractChecker } from "../support/contract.js";
import { type FuzzRequest, implementedOperations, requestsFor } from "../support/fuzz/requests.js";
import { type FuzzWorld, openFuzzWorld } from "../support/fuzz/world.js";

/*
 * An OpenAPI-driven fuzz: for every implemented operation of the published document,
 * requests generated from it (see test/support/fuzz/) go through the real app over a
 * database with real data in it. Whatever is sent, the service must answer as its contract
 * says it answers errors:
 * - never a 5xx;
 * - every 4xx in the envelope {error: {code, message, details?}}, with one of the server's
 *   codes at that code's status, as JSON;
 * - API-Version: v1 on every /api/v1 answer; a 401 names its scheme, a 405 its methods, a
 *   429 when to retry;
 * - an answer to an operation of the document is one it documents (status and schema);
 * - every JSON answer parses;
 * and afterwards, that every projector took what the accepted writes appended.
 * At least 10,000 requests per run. The seed is printed; FUZZ_SEED=<seed> repeats a run,
 * FUZZ_TIMES=<n> sends n times as many requests (docs/http.md, "The fuzz").
 */

const MIN_REQUESTS = 10_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const TIMES = Number(process.env.FUZZ_TIMES ?? 1);
/** Requests per operation: more where there is a body to vary. */
const RUNS = { withoutBody: 150, withBody: 450 };
/** Then batches of 2 to 6 writes of one operation at once: 40 batches an operation. */
const CONCURRENT_BATCHES = 40;

const document = openApiDocument(createApp({ logger: createLogger("silent") }, apiRoutes)) as Parameters<
  typeof contractChecker
>[0];
const operations = implementedOperations(document);
const check = contractChecker(document);

const CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
const envelope = z.strictObject({
  error: z.strictObject({
    code: z.enum(CODES),
    message: z.string().min(1),
    details: z
      .array(
        z.strictObject({
          code: z.string().min(1),
          message: z.string().min(1),
          field: z.string(),
          eventIndex: z.int().min(0).optional(),
        }),
      )
      .optional(),
  }),
});

type Answer = { status: number; headers: Headers; text: string };

let world: FuzzWorld;
let sent = 0;
const statuses = new Map<string, number>();
/** Operations some request got past the checks every operation makes, to the operation's own answer or rules. */
const reachedRules = new Set<string>();

beforeAll(async () => {
  console.log(`openapi fuzz: seed ${SEED} (FUZZ_SEED=${SEED} repeats this run)`);
  world = await openFuzzWorld();
}, 120_000);
afterAll(async () => world?.close());

/** Sends the request as the Node server would hand it to the app: the target as received is the adapter's `incoming.url`. */
async function send(request: FuzzRequest): Promise<Answer> {
  sent++;
  const { method, headers, body } = request;
  const response = await world.app.request(
    request.target,
    { method, headers, ...(body === undefined ? {} : { body }) },
    { incoming: { url: request.target } },
  );
  const answer = { status: response.status, headers: response.headers, text: await response.text() };
  const tally = `${Math.floor(answer.status / 100)}xx`;
  statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
  if (answer.status < 400 || answer.status === 409) reachedRules.add(request.operation);
  return answer;
}

/** What the contract promises of every answer, whatever was asked. */
function expectContractKept(request: FuzzRequest, answer: Answer) {
  const { status, headers, text } = answer;
  const said = `${request.method} ${request.target.slice(0, 200)} → ${status} ${text.slice(0, 500)}`;
  expect(status, said).toBeLessThan(500);

  // The target is a path as sent, never resolved as a reference: `//` is the root with a slash more, not a host.
  const url = new URL(`http://localhost${request.target}`);
  const pathname = url.pathname;
  if (/^\/api\/v1(?:\/|$)/.test(pathname)) expect(headers.get("API-Version"), said).toBe("v1");

  // A HEAD answer is a GET's without its body: nothing more to read in it.
  if (request.method === "HEAD") return;
  const contentType = headers.get("Content-Type") ?? "";
  const json = /^application\/json/i.test(contentType);
  if (json && text !== "") expect(() => JSON.parse(text), said).not.toThrow();
  const body: unknown = json && text !== "" ? JSON.parse(text) : text;

  // An answer to an operation of the document is one it documents: its status, its schema.
  check(new Request(url, { method: request.method }), status, headers, text);
  if (status < 400) return;

  expect(json, `${said}: an error is JSON`).toBe(true);
  const parsed = envelope.safeParse(body);
  expect(parsed.error?.issues ?? [], `${said}: the error envelope`).toEqual([]);
  const code = parsed.data?.error.code as ErrorCode;
  expect(
    status === ERROR_STATUS[code] || (code === "VALIDATION_FAILED" && status === 422),
    `${said}: ${code} is answered with ${ERROR_STATUS[code]}`,
  ).toBe(true);
  if (status === 401) expect(headers.get("WWW-Authenticate"), said).toMatch(/^(Bearer|ApiKey)\b/);
  if (status === 405) expect(headers.get("Allow"), said).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  if (status === 429) expect(headers.get("Retry-After"), said).toMatch(/^\d+$/);
}

/** A seed per operation, from the run's seed and the operation's name, so adding an operation changes no other's requests. */
const seedOf = (key: string) => [...key].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) | 0, SEED);

describe("the OpenAPI fuzz", () => {
  it("covers every implemented operation", () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.map((o) => o.key)).toEqual(
      expect.arrayContaining(["POST /api/v1/submissions", "POST /api/v1/submissions/uploads", "GET /api/v1/fixtures"]),
    );
  });

  for (const operation of operations) {
    const runs = Math.ceil((Object.keys(operation.body).length > 0 ? RUNS.withBody : RUNS.withoutBody) * TIMES);
    it(`${operation.key}: no 5xx, every error in the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(requestsFor(operation, world, document), async (request) => {
          expectContractKept(request, await send(request));
        }),
        { numRuns: runs, seed: seedOf(operation.key) },
      );
    }, 120_000);
  }

  // Writes racing each other: the same fixture's places, the same account's transitions, one
  // consumer's keys. Each batch is sent at once and every answer judged alike.
  for (const operation of operations.filter((o) => o.method !== "GET")) {
    it(`${operation.key}, several at once: no 5xx, every error in the envelope`, async () => {
      const batches = fc.array(requestsFor(operation, world, document), { minLength: 2, maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(batches, async (requests) => {
          const answers = await Promise.all(requests.map(send));
          for (const [i, request] of requests.entries()) expectContractKept(request, answers[i] as Answer);
        }),
        { numRuns: Math.ceil(CONCURRENT_BATCHES * TIMES), seed: seedOf(`${operation.key} at once`) },
      );
    }, 120_000);
  }

  it(`sent at least ${MIN_REQUESTS} requests, and reached every operation's own answers`, () => {
    const counts = [...statuses].sort().map(([tally, n]) => `${tally} ${n}`);
    console.log(
      `openapi fuzz: ${sent} requests (${counts.join(", ")}) over ${operations.length} operations, seed ${SEED}`,
    );
    expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
    // A fuzz refused at the door (every token rejected, every id unknown) would pass without testing much.
    expect(operations.map((o) => o.key).filter((key) => !reachedRules.has(key))).toEqual([]);
  });

  it("left no projector failed on what it wrote", async () => {
    expect(await world.projectorFailures()).toEqual([]);
  });
});
