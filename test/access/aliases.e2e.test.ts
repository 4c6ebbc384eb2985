import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/account-api.js";
import { type ConsumerApi, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";

/*
 * The deprecated /api/v1/consumer/* aliases: each mirrors its canonical twin (same filters,
 * statuses and bodies), needs a valid key (a missing one too is 401), and says so with
 * `Deprecation: ?1` and a successor Link to the canonical path, query string kept. Every
 * alias is compared with its twin on the same real match.
 */

let api: ConsumerApi;
let key: string;
let tails: string[];
beforeAll(async () => {
  api = await openConsumerApi();
  key = (await api.aConsumer({ rateLimitPerMinute: 10_000 })).apiKey;
  const f = `/fixtures/${api.fixtureId}`;
  type Event = { eventId: string; inningsId: string; strikerId: string };
  const first = ((await api.read(`/api/v1${f}/events?limit=1`)).body as { data: Event[] }).data[0] as Event;
  const statistics = (await api.read(`/api/v1${f}/statistics`)).body as {
    data: { innings: { statisticId: string }[] };
  };
  const innings = (statistics.data.innings[0] as { statisticId: string }).statisticId;
  const player = `/participants/${first.strikerId}/statistics`;
  tails = [
    "/competitions?limit=5",
    `/fixtures?limit=2`,
    f,
    `${f}/events?limit=4&overNumber=1`,
    `${f}/events/${first.eventId}`,
    `${f}/events/export.json?inningsId=${encodeURIComponent(first.inningsId)}`,
    `${f}/events/export.csv?overNumber=0`,
    `${f}/statistics`,
    `${f}/statistics/${innings}?includeContributors=true`,
    `${f}/statistics/${innings}/events/export.json`,
    `${f}/statistics/${innings}/events/export.csv`,
    `${player}?scope=career`,
    `${player}/career`,
  ];
}, 60_000);
afterAll(() => api?.close());

const same = (alias: ApiResponse, canonical: ApiResponse) => {
  expect(alias.status, alias.text).toBe(canonical.status);
  expect(alias.headers.get("content-type")).toBe(canonical.headers.get("content-type"));
  expect(alias.headers.get("content-disposition")).toBe(canonical.headers.get("content-disposition"));
  expect(alias.text).toBe(canonical.text);
};

describe("deprecated keyed aliases", () => {
  it("cover the thirteen paths of the specification", () => {
    expect(tails).toHaveLength(13);
    const aliases = Object.keys(api.api.document.paths).filter(
      (p) => p.startsWith("/api/v1/consumer/") && p !== "/api/v1/consumer/usage",
    );
    expect(aliases).toHaveLength(13);
  });

  it("answer as their canonical twins, with Deprecation and a successor Link keeping the query", async () => {
    for (const tail of tails) {
      const canonical = await api.read(`/api/v1${tail}`, { key });
      expect(canonical.status, `${tail}: ${canonical.text}`).toBe(200);
      const alias = await api.read(`/api/v1/consumer${tail}`, { key });
      same(alias, canonical);
      expect(alias.headers.get("deprecation")).toBe("?1");
      expect(alias.headers.get("link")).toBe(`</api/v1${tail}>; rel="successor-version"`);
      expect(alias.headers.has("sunset")).toBe(false);
      expect(alias.headers.get("ratelimit-limit")).toBe("10000");
      expect(alias.headers.get("x-quota-limit")).toBe("10000");
      expect(canonical.headers.has("deprecation")).toBe(false);
    }
  });

  it("answer errors as their twins do: unknown ids, bad filters", async () => {
    for (const tail of [
      "/fixtures/no-such-fixture",
      `/fixtures/${api.fixtureId}/events?overNumber=-1`,
      `/fixtures/${api.fixtureId}/statistics/no-such-statistic`,
      "/fixtures?limit=0",
    ]) {
      const canonical = await api.read(`/api/v1${tail}`, { key });
      expect(canonical.status).toBeGreaterThanOrEqual(400);
      const alias = await api.read(`/api/v1/consumer${tail}`, { key });
      same(alias, canonical);
      expect(alias.headers.get("link")).toBe(`</api/v1${tail}>; rel="successor-version"`);
    }
  });

  it("need a valid key: a missing one is 401 too, still marked deprecated", async () => {
    for (const tail of tails) {
      const missing = await api.read(`/api/v1/consumer${tail}`);
      expectError(missing, 401, "API_KEY_UNAUTHORIZED");
      expect(missing.headers.get("www-authenticate")).toBe("ApiKey");
      expect(missing.headers.get("deprecation")).toBe("?1");
      expectError(await api.read(`/api/v1/consumer${tail}`, { key: `${key}0` }), 401, "API_KEY_UNAUTHORIZED");
    }
    // Their canonical twins are open without one.
    expect((await api.read(`/api/v1${tails[1]}`)).status).toBe(200);
  });

  it("exist only for those paths", async () => {
    for (const tail of ["/seasons", "/competitors", "/participants", "/statistics/leaderboards?metric=most_runs"]) {
      expectError(await api.read(`/api/v1/consumer${tail}`, { key }), 404, "NOT_FOUND");
    }
  });
});
