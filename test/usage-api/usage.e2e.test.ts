import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, utcDate } from "../../src/usage/dates.js";
import { UsageRecorder } from "../../src/usage/recorder.js";
import { type BearerClient, expectError, expectUnauthorized } from "../support/account-api.js";
import { type ConsumerApi, type IssuedConsumer, limitHeaders, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";
import { memoryLogger } from "../support/logs.js";
import { aRequest } from "../support/usage.js";

/*
 * The two usage routes over HTTP: an administrator reads an owned consumer's usage with a
 * bearer token, a consumer its own with its key. Requests are counted by the app's own
 * recorder (keyed reads through the app) or handed to that recorder directly for past dates.
 */

type Usage = {
  consumerId: number;
  from: string;
  to: string;
  dailyQuota: number;
  rateLimitPerMinute: number;
  rows: { date: string; endpoint: string; statusClass: string; requests: number }[];
  truncated: boolean;
};

let api: ConsumerApi;
let usage: UsageRecorder;
/** An instance of the app that records usage (the shared harness's main app does not). */
let app: BearerClient;
beforeAll(async () => {
  api = await openConsumerApi();
  usage = new UsageRecorder(api.db.sql, memoryLogger().logger);
  app = api.anotherInstance({ usage });
}, 60_000);
afterAll(async () => {
  await usage?.close();
  await api?.close();
});

const today = () => utcDate(new Date());
const adminUsage = (consumerId: number | string, query = "", token = api.admin.token) =>
  app.get(`/api/v1/admin/api-consumers/${consumerId}/usage${query}`, { token });
const ownUsage = (key: string, query = "") => api.read(`/api/v1/consumer/usage${query}`, { key, client: app });

function usageOf(res: ApiResponse): Usage {
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Usage }).data;
}

/** A consumer whose key has read a fixture twice, an unknown fixture once, and who has usage two days back. */
async function aBusyConsumer(): Promise<IssuedConsumer> {
  const consumer = await api.aConsumer({ rateLimitPerMinute: 120, dailyQuota: 5_000 });
  for (const fixtureId of [api.fixtureId, api.fixtureId, "no-such-fixture"])
    await api.read(`/api/v1/fixtures/${fixtureId}`, { key: consumer.apiKey, client: app });
  const twoDaysAgo = addDays(today(), -2);
  for (let i = 0; i < 3; i++)
    usage.record(
      aRequest(twoDaysAgo, {
        consumerId: consumer.consumerId,
        keyId: consumer.keyId,
        routePath: "/api/v1/competitions",
      }),
    );
  return consumer;
}

describe("GET /admin/api-consumers/{consumerId}/usage", () => {
  it("gives the owner the latest 7 dates, grouped and ordered, with the configured limits and the latest requests", async () => {
    const consumer = await aBusyConsumer();
    expect(usageOf(await adminUsage(consumer.consumerId))).toEqual({
      consumerId: consumer.consumerId,
      from: addDays(today(), -6),
      to: today(),
      dailyQuota: 5_000,
      rateLimitPerMinute: 120,
      rows: [
        { date: today(), endpoint: "GET /api/v1/fixtures/{fixtureId}", statusClass: "2xx", requests: 2 },
        { date: today(), endpoint: "GET /api/v1/fixtures/{fixtureId}", statusClass: "4xx", requests: 1 },
        { date: addDays(today(), -2), endpoint: "GET /api/v1/competitions", statusClass: "2xx", requests: 3 },
      ],
      truncated: false,
    });
  });

  it("sums the consumer's keys, rotated ones included", async () => {
    const consumer = await api.aConsumer();
    await api.read("/api/v1/competitions", { key: consumer.apiKey, client: app });
    const rotated = await api.rotate(consumer.consumerId);
    await api.read("/api/v1/competitions", { key: rotated.apiKey, client: app });
    expect(usageOf(await adminUsage(consumer.consumerId)).rows).toEqual([
      { date: today(), endpoint: "GET /api/v1/competitions", statusClass: "2xx", requests: 2 },
    ]);
  });

  it("gives 7 dates for one bound alone, either one, in the past or the future", async () => {
    const consumer = await aBusyConsumer();
    const twoDaysAgo = addDays(today(), -2);
    const window = (query: string) =>
      adminUsage(consumer.consumerId, query)
        .then(usageOf)
        .then(({ from, to, rows }) => ({ from, to, rows }));
    expect(await window(`?from=${twoDaysAgo}`)).toMatchObject({
      from: twoDaysAgo,
      to: addDays(twoDaysAgo, 6),
      rows: [{ date: today() }, { date: today() }, { date: twoDaysAgo }],
    });
    expect(await window(`?to=${twoDaysAgo}`)).toMatchObject({
      from: addDays(twoDaysAgo, -6),
      to: twoDaysAgo,
      rows: [{ date: twoDaysAgo }],
    });
    expect(await window(`?from=${addDays(today(), -40)}`)).toEqual({
      from: addDays(today(), -40),
      to: addDays(today(), -34),
      rows: [],
    });
    expect(await window("?from=9999-12-30")).toEqual({ from: "9999-12-30", to: "9999-12-31", rows: [] });
    expect(await window("?to=0001-01-02")).toEqual({ from: "0001-01-01", to: "0001-01-02", rows: [] });
  });

  it("takes the window and limit asked for, and says when rows were left out", async () => {
    const consumer = await aBusyConsumer();
    const twoDaysAgo = addDays(today(), -2);
    const window = usageOf(await adminUsage(consumer.consumerId, `?from=${twoDaysAgo}&to=${twoDaysAgo}`));
    expect([window.from, window.to, window.rows.map((r) => r.date)]).toEqual([twoDaysAgo, twoDaysAgo, [twoDaysAgo]]);

    const limited = usageOf(await adminUsage(consumer.consumerId, "?limit=2"));
    expect([limited.rows.length, limited.truncated]).toEqual([2, true]);
    expect(usageOf(await adminUsage(consumer.consumerId, "?limit=3")).truncated).toBe(false);
  });

  it("pages with a cursor, on either route, through every row once; a cursor of another window is 400", async () => {
    const consumer = await aBusyConsumer();
    const whole = usageOf(await adminUsage(consumer.consumerId, "?limit=100")).rows;
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const first = await adminUsage(consumer.consumerId, "?limit=1");
    const next = (first.body as { pagination: { limit: number; nextCursor: string } }).pagination;
    expect(next).toEqual({ limit: 1, nextCursor: expect.any(String) });
    const rest = await ownUsage(consumer.apiKey, `?limit=100&cursor=${next.nextCursor}`);
    expect([...usageOf(first).rows, ...usageOf(rest).rows]).toEqual(whole);
    expect((rest.body as { pagination: { nextCursor: string | null } }).pagination.nextCursor).toBeNull();

    const yesterday = addDays(today(), -1);
    const elsewhere = await adminUsage(consumer.consumerId, `?to=${yesterday}&cursor=${next.nextCursor}`);
    expectError(elsewhere, 400, "VALIDATION_FAILED");
    // Bound to its consumer: another consumer's read does not continue from it.
    const other = await aBusyConsumer();
    expectError(await ownUsage(other.apiKey, `?limit=1&cursor=${next.nextCursor}`), 400, "VALIDATION_FAILED");
    expectError(await ownUsage(consumer.apiKey, "?cursor=not-a-cursor"), 400, "VALIDATION_FAILED");
  });

  it("refuses an invalid window or limit with 400 VALIDATION_FAILED naming the parameter", async () => {
    const { consumerId } = await api.aConsumer();
    const cases: [query: string, field: string][] = [
      ["?from=2026-03-02&to=2026-03-01", "to"],
      ["?from=2026-01-01&to=2026-02-01", "to"],
      ["?from=0000-12-31", "from"],
      ["?to=0000-12-31&from=0001-01-01", "to"],
      ["?from=2026-02-30", "from"],
      ["?to=yesterday", "to"],
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?consumerId=1", "consumerId"],
    ];
    for (const [query, field] of cases) {
      const res = await adminUsage(consumerId, query);
      expectError(res, 400, "VALIDATION_FAILED");
      expect((res.body as { error: { details: { field: string }[] } }).error.details, query).toEqual([
        expect.objectContaining({ code: "INVALID_FIELD", field }),
      ]);
    }
    expect(usageOf(await adminUsage(consumerId, `?from=${addDays(today(), -30)}`)).rows).toEqual([]);
  });

  it("answers the same 404 for another administrator's consumer and a missing one, 422 for a non-numeric id", async () => {
    const { consumerId } = await api.aConsumer();
    const other = await api.anAdmin();
    const notOwned = await adminUsage(consumerId, "", other.token);
    const missing = await adminUsage(999_999_999, "", other.token);
    expectError(notOwned, 404, "NOT_FOUND");
    expect(notOwned.body).toEqual(missing.body);
    for (const id of ["abc", "0", "1.5"]) expectError(await adminUsage(id), 422, "VALIDATION_FAILED");
  });

  it("is for administrators only: 401 without a bearer token, 403 for a viewer, whatever the consumer", async () => {
    const { consumerId, apiKey } = await api.aConsumer();
    expectUnauthorized(await app.get(`/api/v1/admin/api-consumers/${consumerId}/usage`));
    expectUnauthorized(
      await app.get(`/api/v1/admin/api-consumers/${consumerId}/usage`, { headers: { "x-api-key": apiKey } }),
    );
    const viewer = await api.signIn();
    expectError(await adminUsage(consumerId, "", viewer.token), 403, "FORBIDDEN");
    expectError(await adminUsage("abc", "", viewer.token), 403, "FORBIDDEN");
  });
});

describe("GET /consumer/usage", () => {
  it("gives the key's consumer its own usage with its limit and quota headers, and counts itself afterwards", async () => {
    const consumer = await aBusyConsumer();
    const asTheOwnerSeesIt = usageOf(await adminUsage(consumer.consumerId));
    const first = await ownUsage(consumer.apiKey);
    expect(usageOf(first)).toEqual(asTheOwnerSeesIt);
    expect(Object.keys(limitHeaders(first))).toEqual([
      "ratelimit-limit",
      "ratelimit-remaining",
      "ratelimit-reset",
      "x-quota-limit",
      "x-quota-remaining",
      "x-quota-reset",
    ]);

    const second = usageOf(await ownUsage(consumer.apiKey, "?limit=1"));
    expect(second.rows).toEqual([
      { date: today(), endpoint: "GET /api/v1/consumer/usage", statusClass: "2xx", requests: 1 },
    ]);
  });

  it("refuses a bad window as the admin route does", async () => {
    const { apiKey } = await api.aConsumer();
    expectError(await ownUsage(apiKey, "?from=2026-03-02&to=2026-03-01"), 400, "VALIDATION_FAILED");
    expectError(await ownUsage(apiKey, "?consumerId=1"), 400, "VALIDATION_FAILED");
  });

  it("needs a valid key: 401 API_KEY_UNAUTHORIZED without one, with an unknown one or with a bearer token", async () => {
    for (const res of [
      await app.get("/api/v1/consumer/usage"),
      await ownUsage("ck_notAKey"),
      await app.get("/api/v1/consumer/usage", { token: api.admin.token }),
    ]) {
      expectError(res, 401, "API_KEY_UNAUTHORIZED");
      expect(res.headers.get("www-authenticate")).toBe("ApiKey");
    }
  });
});
