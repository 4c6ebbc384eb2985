import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findActiveKey } from "../../src/consumers/queries.js";
import { serverSecret } from "../../src/security/server-secret.js";
import { consumerStream } from "../../streams/consumer.js";
import {
  type AccountApi,
  expectError,
  expectUnauthorized,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { invalidFields, rekeyed } from "../support/read-api.js";

/**
 * Consumer key administration over HTTP: issue, list, rotate and revoke, as the owning
 * administrator; what others get; the raw key shown once and found nowhere else; the
 * bounds of every field and id; and that the key lookup every keyed request makes agrees
 * with each answer at once (read-your-writes).
 */
let a: AccountApi;
let admin: Person;
const secret = serverSecret("the e2e server secret, thirty-two characters or more");
const COLLECTION = "/api/v1/admin/api-consumers";

type Key = { keyId: number; prefix: string; createdAt: string; revokedAt: string | null };
type Consumer = {
  consumerId: number;
  name: string;
  rateLimitPerMinute: number;
  dailyQuota: number;
  createdAt: string;
  keys: Key[];
};
type WithKey = Consumer & { apiKey: string };

beforeAll(async () => {
  a = await openAccountApi({ deps: { secret } });
  admin = await a.anAdmin();
});
afterAll(() => a?.close());

const issue = (body: unknown, by: Person = admin) => a.api.post(COLLECTION, body, { token: by.token });
const rotate = (consumerId: number | string, by: Person = admin) =>
  a.api.post(`${COLLECTION}/${consumerId}/keys/rotate`, undefined, { token: by.token });
const revoke = (consumerId: number | string, keyId: number | string, by: Person = admin) =>
  a.api.delete(`${COLLECTION}/${consumerId}/keys/${keyId}`, undefined, { token: by.token });
const keyLookup = (rawKey: string) => findActiveKey(a.db.sql, secret, rawKey);

/** The answer's data, asserting its status. */
function dataOf<T>(res: ApiResponse, status: number): T {
  expect(res.status, res.text).toBe(status);
  return (res.body as { data: T }).data;
}

async function aConsumer(body: object = {}, by: Person = admin): Promise<WithKey> {
  return dataOf<WithKey>(await issue({ name: "Fantasy XI", ...body }, by), 201);
}

/** Every consumer of `by`, page by page. */
async function everyConsumer(by: Person = admin): Promise<Consumer[]> {
  const all: Consumer[] = [];
  for (let cursor: string | null = null, pages = 0; pages < 50; pages++) {
    const query: string = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await a.api.get(`${COLLECTION}${query}`, { token: by.token });
    const page = res.body as { data: Consumer[]; pagination: { nextCursor: string | null } };
    expect(res.status, res.text).toBe(200);
    all.push(...page.data);
    cursor = page.pagination.nextCursor;
    if (cursor === null) return all;
  }
  throw new Error("more than 50 pages");
}

describe("issuing a consumer", () => {
  it("answers 201 with its metadata, key 1 and the raw key, uncached, and the key works at once", async () => {
    const res = await issue({ name: "  Fantasy XI  ", rateLimitPerMinute: 120, dailyQuota: 5000 });
    const data = dataOf<WithKey>(res, 201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("location")).toBe(`${COLLECTION}/${data.consumerId}`);
    expect(data).toEqual({
      consumerId: expect.any(Number),
      name: "Fantasy XI",
      rateLimitPerMinute: 120,
      dailyQuota: 5000,
      createdAt: expect.any(String),
      keys: [{ keyId: 1, prefix: data.apiKey.slice(0, 13), createdAt: data.createdAt, revokedAt: null }],
      apiKey: expect.stringMatching(/^ck_[0-9A-Za-z]{10}_[0-9A-Za-z_-]{43}$/),
    });
    expect(await keyLookup(data.apiKey)).toEqual({
      consumerId: data.consumerId,
      keyId: 1,
      rateLimitPerMinute: 120,
      dailyQuota: 5000,
    });
  });

  it("defaults to 60 requests per minute and 10,000 per day", async () => {
    const data = await aConsumer();
    expect(data).toMatchObject({ rateLimitPerMinute: 60, dailyQuota: 10_000 });
  });

  it("accepts every bound itself", async () => {
    const data = await aConsumer({ name: "n".repeat(100), rateLimitPerMinute: 10_000, dailyQuota: 10_000_000 });
    expect(data).toMatchObject({ name: "n".repeat(100), rateLimitPerMinute: 10_000, dailyQuota: 10_000_000 });
    expect(await aConsumer({ name: "x", rateLimitPerMinute: 1, dailyQuota: 1 })).toMatchObject({
      rateLimitPerMinute: 1,
      dailyQuota: 1,
    });
  });

  it.each([
    ["name", { name: undefined }],
    ["name", { name: "" }],
    ["name", { name: "   " }],
    ["name", { name: "n".repeat(101) }],
    ["name", { name: 7 }],
    ["rateLimitPerMinute", { rateLimitPerMinute: 0 }],
    ["rateLimitPerMinute", { rateLimitPerMinute: 10_001 }],
    ["rateLimitPerMinute", { rateLimitPerMinute: 1.5 }],
    ["rateLimitPerMinute", { rateLimitPerMinute: "60" }],
    ["rateLimitPerMinute", { rateLimitPerMinute: null }],
    ["dailyQuota", { dailyQuota: 0 }],
    ["dailyQuota", { dailyQuota: 10_000_001 }],
    ["dailyQuota", { dailyQuota: -5 }],
    ["ownerAccountId", { ownerAccountId: "someone-else" }],
  ])("refuses a bad %s with 422 naming it: %j", async (field, body) => {
    const res = await issue({ name: "Fantasy XI", ...body });
    expectError(res, 422, "VALIDATION_FAILED");
    const { details } = (res.body as { error: { details: { field: string }[] } }).error;
    expect(details.map((d) => d.field)).toEqual([field]);
  });

  it("refuses a body that is not JSON with 400 INVALID_JSON", async () =>
    expectError(await issue("{not json"), 400, "INVALID_JSON"));

  it("gives ten concurrent issues ten distinct ids", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => issue({ name: `Parallel ${i}` })));
    const ids = answers.map((res) => dataOf<WithKey>(res, 201).consumerId);
    expect(new Set(ids).size).toBe(10);
    for (const res of answers) {
      const data = dataOf<WithKey>(res, 201);
      expect(await keyLookup(data.apiKey)).toMatchObject({ consumerId: data.consumerId, keyId: 1 });
    }
  });
});

describe("listing consumers", () => {
  let mine: WithKey;
  let theirs: WithKey;
  let otherAdmin: Person;

  beforeAll(async () => {
    otherAdmin = await a.anAdmin();
    mine = await aConsumer({ name: "Listed" });
    theirs = await aConsumer({ name: "Not mine" }, otherAdmin);
  });

  it("shows the caller's own consumers with safe key metadata, in id order, page by page", async () => {
    const listed = await everyConsumer();
    const { apiKey: _, ...metadata } = mine;
    expect(listed).toContainEqual(metadata);
    expect(listed.map((c) => c.consumerId)).toEqual([...listed.map((c) => c.consumerId)].sort((x, y) => x - y));
    expect(listed.map((c) => c.consumerId)).not.toContain(theirs.consumerId);
    const { apiKey: _k, ...theirMetadata } = theirs;
    expect(await everyConsumer(otherAdmin)).toEqual([theirMetadata]);
  });

  it("never shows a raw key or a digest", async () => {
    const res = await a.api.get(`${COLLECTION}?limit=100`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(mine.apiKey);
    expect(res.text).not.toContain(secret.digest("api-key", mine.apiKey));
    expect(res.text).not.toMatch(/digest|apiKey/);
    // Like every answer to a bearer token (docs/http.md, "Security headers").
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses an unknown query parameter with 400", async () =>
    expectError(await a.api.get(`${COLLECTION}?owner=me`, { token: admin.token }), 400, "VALIDATION_FAILED"));

  it("refuses a cursor forged with an id no consumer can have with 400 (past PostgreSQL's integer it was a 500)", async () => {
    await aConsumer({ name: "Another" });
    const first = await a.api.get(`${COLLECTION}?limit=1`, { token: admin.token });
    const cursor = (first.body as { pagination: { nextCursor: string } }).pagination.nextCursor;
    for (const id of [2 ** 31, 0, -1, 1.5, "1"])
      expect(
        invalidFields(await a.api.get(`${COLLECTION}?limit=1&cursor=${rekeyed(cursor, [id])}`, { token: admin.token })),
      ).toEqual(["cursor"]);
  });
});

describe("the raw key", () => {
  it("is in no event of the consumer's stream and in no log line, after issue and rotation", async () => {
    const first = await aConsumer();
    const second = dataOf<WithKey>(await rotate(first.consumerId), 200);
    const stream = await a.world.store.readStream(consumerStream(first.consumerId));
    const events = JSON.stringify(stream.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })));
    const logs = JSON.stringify(a.logs());
    for (const raw of [first.apiKey, second.apiKey]) {
      const secretPart = raw.slice(14);
      expect(events).not.toContain(secretPart);
      expect(logs).not.toContain(secretPart);
    }
    expect(events).toContain(secret.digest("api-key", first.apiKey));
  });
});

describe("rotating keys", () => {
  it("revokes every active key, then issues the next one: the old key stops, the new one works at once", async () => {
    const issued = await aConsumer();
    const res = await rotate(issued.consumerId);
    const rotated = dataOf<WithKey>(res, 200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(rotated.apiKey).not.toBe(issued.apiKey);
    expect(rotated.keys).toEqual([
      { ...issued.keys[0], revokedAt: expect.any(String) },
      { keyId: 2, prefix: rotated.apiKey.slice(0, 13), createdAt: expect.any(String), revokedAt: null },
    ]);
    expect(await keyLookup(issued.apiKey)).toBeUndefined();
    expect(await keyLookup(rotated.apiKey)).toMatchObject({ consumerId: issued.consumerId, keyId: 2 });

    const again = dataOf<WithKey>(await rotate(issued.consumerId), 200);
    expect(again.keys.map((k) => [k.keyId, k.revokedAt === null])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(await keyLookup(rotated.apiKey)).toBeUndefined();
    expect(await keyLookup(again.apiKey)).toMatchObject({ keyId: 3 });
  });

  it("gives a consumer whose keys are all revoked a new one", async () => {
    const issued = await aConsumer();
    expect((await revoke(issued.consumerId, 1)).status).toBe(204);
    const rotated = dataOf<WithKey>(await rotate(issued.consumerId), 200);
    expect(rotated.keys.map((k) => [k.keyId, k.revokedAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(await keyLookup(rotated.apiKey)).toMatchObject({ keyId: 2 });
  });
});

describe("while the read model lags", () => {
  it("issue and rotation still show the key once, with the consumer as its stream says", async () => {
    // An instance that does not wait for the read models, and no projector running at all.
    const lagging = a.anotherInstance({ projections: undefined });
    await a.world.runner.stop();
    let issued: WithKey;
    let rotated: WithKey;
    try {
      issued = dataOf<WithKey>(await lagging.post(COLLECTION, { name: "Late" }, { token: admin.token }), 201);
      rotated = dataOf<WithKey>(
        await lagging.post(`${COLLECTION}/${issued.consumerId}/keys/rotate`, undefined, { token: admin.token }),
        200,
      );
    } finally {
      a.world.runner.start();
    }
    expect(issued).toMatchObject({ name: "Late", rateLimitPerMinute: 60, dailyQuota: 10_000 });
    expect(issued.keys).toEqual([
      { keyId: 1, prefix: issued.apiKey.slice(0, 13), createdAt: issued.createdAt, revokedAt: null },
    ]);
    expect(rotated.keys).toEqual([
      { ...issued.keys[0], revokedAt: expect.any(String) },
      { keyId: 2, prefix: rotated.apiKey.slice(0, 13), createdAt: expect.any(String), revokedAt: null },
    ]);
    // Once the read model catches up it says the same, and only the rotated key works.
    await a.world.catchUp();
    const { apiKey: _, ...shown } = rotated;
    expect((await everyConsumer()).find((c) => c.consumerId === issued.consumerId)).toEqual(shown);
    expect(await keyLookup(issued.apiKey)).toBeUndefined();
    expect(await keyLookup(rotated.apiKey)).toMatchObject({ consumerId: issued.consumerId, keyId: 2 });
  });
});

describe("a body sent to rotation or revocation, which take none", () => {
  it("is refused with 422 naming `body`, and the keys stay as they were", async () => {
    const issued = await aConsumer();
    const before = await a.world.store.readStream(consumerStream(issued.consumerId));
    const withBody = (method: "post" | "delete", path: string, body: unknown) =>
      a.api[method](`${COLLECTION}/${issued.consumerId}/keys/${path}`, body, { token: admin.token });
    for (const body of [{}, { keyId: 1 }, "rotate please"]) {
      for (const res of [await withBody("post", "rotate", body), await withBody("delete", "1", body)]) {
        expectError(res, 422, "VALIDATION_FAILED");
        expect((res.body as { error: { details: unknown[] } }).error.details).toEqual([
          { code: "INVALID_FIELD", message: expect.any(String), field: "body" },
        ]);
      }
    }
    expect(await a.world.store.readStream(consumerStream(issued.consumerId))).toHaveLength(before.length);
    expect(await keyLookup(issued.apiKey)).toMatchObject({ consumerId: issued.consumerId, keyId: 1 });
  });
});

describe("revoking a key", () => {
  it("stops the key at once, and again is 204 with nothing changed", async () => {
    const issued = await aConsumer();
    const res = await revoke(issued.consumerId, 1);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe("");
    expect(await keyLookup(issued.apiKey)).toBeUndefined();
    const before = await a.world.store.readStream(consumerStream(issued.consumerId));

    expect((await revoke(issued.consumerId, 1)).status).toBe(204);
    expect(await a.world.store.readStream(consumerStream(issued.consumerId))).toHaveLength(before.length);
    const [listed] = (await everyConsumer()).filter((c) => c.consumerId === issued.consumerId);
    expect(listed?.keys).toEqual([{ ...issued.keys[0], revokedAt: expect.any(String) }]);
  });

  it("leaves the consumer's other keys working", async () => {
    const issued = await aConsumer();
    const rotated = dataOf<WithKey>(await rotate(issued.consumerId), 200);
    expect((await revoke(issued.consumerId, 1)).status).toBe(204);
    expect(await keyLookup(rotated.apiKey)).toMatchObject({ keyId: 2 });
  });

  it("does not find a key id the consumer never had", async () => {
    const issued = await aConsumer();
    expectError(await revoke(issued.consumerId, 2), 404, "NOT_FOUND");
  });
});

describe("what other callers get", () => {
  let theirs: WithKey;
  let otherAdmin: Person;

  beforeAll(async () => {
    otherAdmin = await a.anAdmin();
    theirs = await aConsumer({}, otherAdmin);
  });

  it("does not find another administrator's consumer, with exactly the answer of a missing one", async () => {
    const missing = [await rotate(999_999_999), await revoke(999_999_999, 1)];
    const notMine = [await rotate(theirs.consumerId), await revoke(theirs.consumerId, 1)];
    for (const [i, res] of notMine.entries()) {
      expectError(res, 404, "NOT_FOUND");
      expect(res.body).toEqual(missing[i]?.body);
    }
    expect(await keyLookup(theirs.apiKey)).toMatchObject({ consumerId: theirs.consumerId, keyId: 1 });
  });

  it("refuses viewers and submitters with 403", async () => {
    const competition = await a.aRegisteredCompetition();
    for (const person of [await a.signIn(), await a.aSubmitter(admin, competition.id)]) {
      expectError(await a.api.get(COLLECTION, { token: person.token }), 403, "FORBIDDEN");
      expectError(await issue({ name: "Mine" }, person), 403, "FORBIDDEN");
      expectError(await rotate(theirs.consumerId, person), 403, "FORBIDDEN");
      expectError(await revoke(theirs.consumerId, 1, person), 403, "FORBIDDEN");
    }
  });

  it("refuses a request without a bearer token with 401, before looking at its input", async () => {
    const none = { token: undefined };
    expectUnauthorized(await a.api.get(COLLECTION));
    expectUnauthorized(await a.api.post(COLLECTION, { name: "x" }, none));
    expectUnauthorized(await a.api.post(`${COLLECTION}/abc/keys/rotate`, undefined, none));
    expectUnauthorized(await a.api.delete(`${COLLECTION}/${theirs.consumerId}/keys/1`, undefined, none));
    expect(await keyLookup(theirs.apiKey)).toBeDefined();
  });

  it("refuses an API key where a bearer token is needed", async () => {
    const res = await a.api.get(COLLECTION, { headers: { "x-api-key": theirs.apiKey } });
    expectUnauthorized(res);
  });
});

describe("ids in paths", () => {
  it.each(["abc", "0", "-1", "1.5", "1e3", "0x1", "1234567890123456"])(
    "refuses consumer id %s with 422 naming consumerId",
    async (id) => {
      for (const res of [await rotate(id), await revoke(id, 1)]) {
        expectError(res, 422, "VALIDATION_FAILED");
        expect((res.body as { error: { details: { field: string }[] } }).error.details).toEqual([
          expect.objectContaining({ code: "INVALID_FIELD", field: "consumerId" }),
        ]);
      }
    },
  );

  it("finds no consumer or key at ids past what the database stores, with the usual 404", async () => {
    const issued = await aConsumer();
    for (const huge of ["2147483648", "123456789012345"]) {
      for (const res of [await rotate(huge), await revoke(huge, 1), await revoke(issued.consumerId, huge)])
        expectError(res, 404, "NOT_FOUND");
      const usage = await a.api.get(`${COLLECTION}/${huge}/usage`, { token: admin.token });
      expectError(usage, 404, "NOT_FOUND");
    }
  });

  it.each(["abc", "0", "-2"])("refuses key id %s with 422 naming keyId", async (id) => {
    const res = await revoke(1, id);
    expectError(res, 422, "VALIDATION_FAILED");
    expect((res.body as { error: { details: { field: string }[] } }).error.details).toEqual([
      expect.objectContaining({ code: "INVALID_FIELD", field: "keyId" }),
    ]);
  });
});
