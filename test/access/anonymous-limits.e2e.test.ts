import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { clientAddress } from "../../src/http/access.js";
import { createRouter } from "../../src/http/api.js";
import { expectError } from "../support/account-api.js";
import { type ConsumerApi, limitHeaders, openConsumerApi } from "../support/consumer-api.js";
import type { ApiResponse } from "../support/contract.js";

/*
 * Canonical reads without a key: a per-source minute window, the source being an HMAC of
 * the client address (only trusted proxy hops count), plus a platform budget all anonymous
 * clients share. Limited answers carry RateLimit-* and Retry-After, never quota headers.
 */

const MINUTE = 60_000;
let api: ConsumerApi;
beforeAll(async () => {
  api = await openConsumerApi({
    anonymousLimits: { perSourcePerMinute: 3, platformPerMinute: 5 },
    trustedProxyHops: 1,
    corsOrigins: ["https://scores.example"],
  });
}, 60_000);
afterAll(() => api?.close());
afterEach(() => {
  vi.useRealTimers();
});

let minutesAhead = 5;
/** A fresh UTC minute, a little in: no other test shares its windows. */
const aFreshMinute = () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime((Math.floor(Date.now() / MINUTE) + minutesAhead++) * MINUTE + 15_000);
};
const from = (forwardedFor: string) =>
  api.read("/api/v1/competitions", { headers: { "x-forwarded-for": forwardedFor } });
const ok = (res: ApiResponse) => expect(res.status, res.text).toBe(200);

describe("anonymous canonical reads", () => {
  it("admits a source's limit in a minute, then 429 with RateLimit-* and Retry-After only", async () => {
    aFreshMinute();
    for (let i = 0; i < 3; i++) {
      const res = await from("203.0.113.7");
      ok(res);
      expect(limitHeaders(res)).toEqual({}); // nothing about limits or quota on an admitted anonymous read
    }
    const refused = await from("203.0.113.7");
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(limitHeaders(refused)).toEqual({
      "ratelimit-limit": "3",
      "ratelimit-remaining": "0",
      "ratelimit-reset": "45",
      "retry-after": "45",
    });
    // It says what lifts the limit: a key and where to get one, or the setting.
    expect((refused.body as { error: { message: string } }).error.message).toBe(
      "At most 3 requests a minute from one client without an API key; retry after 45 s. An API key lifts this: an administrator issues one (POST /api/v1/admin/api-consumers), sent in X-API-Key. Running the service yourself? ANONYMOUS_RATE_LIMIT_PER_MINUTE sets this limit.",
    );
    ok(await from("198.51.100.9")); // another source has its own window
  });

  it("answers a page over the limit as a page: 429, Retry-After, the same words in HTML", async () => {
    aFreshMinute();
    const page = () =>
      api.app.request("/search?q=kohli", { headers: { "x-forwarded-for": "203.0.113.50", accept: "text/html" } });
    for (let i = 0; i < 3; i++) expect((await page()).status).toBe(200);
    const refused = await page();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(refused.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'self'/);
    const html = await refused.text();
    expect(html).toMatch(/<h1>Too many requests<\/h1>/);
    expect(html).toContain("At most 3 requests a minute from one client without an API key");
    // The front door keeps its JSON envelope for API clients.
    const index = await api.app.request("/", { headers: { "x-forwarded-for": "203.0.113.50" } });
    expectError(
      { status: index.status, body: await index.json(), text: "" } as ApiResponse,
      429,
      "RATE_LIMIT_EXCEEDED",
    );
  });

  it("shares the platform budget between every source", async () => {
    aFreshMinute();
    for (const source of ["192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.2", "192.0.2.3"]) ok(await from(source));
    const refused = await from("192.0.2.4");
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(limitHeaders(refused)).toMatchObject({ "ratelimit-limit": "5", "ratelimit-remaining": "0" });
    expect((refused.body as { error: { message: string } }).error.message).toMatch(
      /^At most 5 requests a minute from all clients without an API key together; .* ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE sets this limit\.$/,
    );
  });

  it("takes the address the trusted proxy saw, not one the client wrote in front of it", async () => {
    aFreshMinute();
    for (let i = 0; i < 3; i++) ok(await from("203.0.113.50"));
    // A client cannot become a new source by prepending addresses of its own choosing.
    expectError(await from("10.9.8.7, 203.0.113.50"), 429, "RATE_LIMIT_EXCEEDED");
    expectError(await from("2001:db8::1, 203.0.113.50"), 429, "RATE_LIMIT_EXCEEDED");
  });

  it("counts an IPv6 client by its /64, so fresh addresses from one subscriber share a limit", async () => {
    aFreshMinute();
    for (const host of ["1", "2", "3"]) ok(await from(`2001:db8:0:7::${host}`));
    expectError(await from("2001:db8:0:7:ffff::4"), 429, "RATE_LIMIT_EXCEEDED");
    ok(await from("2001:db8:0:8::1"));
  });

  it("limits nothing but the cricket-resource reads", async () => {
    aFreshMinute();
    for (let i = 0; i < 8; i++)
      ok(await api.read("/api/v1/health", { headers: { "x-forwarded-for": "198.51.100.77" } }));
  });
});

describe("a key sent where it is not read", () => {
  const messageOf = (res: ApiResponse) =>
    (res.body as { error: { message: string; details?: { message: string }[] } }).error;

  it("in Authorization is refused, not ignored, and told to go in X-API-Key", async () => {
    const { apiKey } = await api.aConsumer();
    for (const authorization of [`Bearer ${apiKey}`, apiKey, `ApiKey ${apiKey}`]) {
      const res = await api.read("/api/v1/competitions", { headers: { authorization } });
      expectError(res, 401, "API_KEY_UNAUTHORIZED");
      expect(messageOf(res).message).toMatch(/goes in the X-API-Key header, not in Authorization/);
    }
    ok(await api.read("/api/v1/competitions", { key: apiKey }));
    // A bearer token of the identity provider on a public read is no slip: the read is anonymous.
    ok(await api.read("/api/v1/competitions", { headers: { authorization: `Bearer ${api.admin.token}` } }));
  });

  it("in Authorization of an operation that needs a token, is told what a key is for", async () => {
    const { apiKey } = await api.aConsumer();
    const res = await api.read("/api/v1/auth/me", { headers: { authorization: `Bearer ${apiKey}` } });
    expectError(res, 401, "UNAUTHORIZED");
    expect(messageOf(res).message).toMatch(/^That is an API key: keys go in X-API-Key/);
  });

  it("in the query string is a 400 that says where it goes", async () => {
    aFreshMinute();
    const names = ["api_key", "apiKey", "key", "x-api-key", "access_token"];
    for (const [n, name] of names.entries()) {
      const res = await api.read(`/api/v1/competitions?${name}=ck_0123456789_x`, {
        headers: { "x-forwarded-for": `192.0.2.${100 + n}` },
      });
      expectError(res, 400, "VALIDATION_FAILED");
      expect(messageOf(res).details).toEqual([
        expect.objectContaining({
          field: name,
          message: "Unknown query parameter: an API key goes in the X-API-Key header, never in a URL (URLs are logged)",
        }),
      ]);
    }
    aFreshMinute(); // the platform budget is five a minute
    const misspelt = await api.read("/api/v1/competitions?nmae=x", { headers: { "x-forwarded-for": "192.0.2.99" } });
    expect(messageOf(misspelt).details).toEqual([
      expect.objectContaining({ field: "nmae", message: "Unknown query parameter" }),
    ]);
  });

  it("does not lift the limit of an operation that takes no key, so its 429 names only the setting", async () => {
    aFreshMinute();
    const evaluate = (n: number) =>
      api.api.post(
        "/api/v1/query-definitions/evaluate",
        { definition: { type: "leaderboard", scope: "season", seasonId: "none", metric: "most_runs" } },
        { headers: { "x-forwarded-for": `198.51.100.${n}` } },
      );
    for (let i = 0; i < 3; i++) await evaluate(200);
    const refused = await evaluate(200);
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(messageOf(refused).message).not.toMatch(/An API key lifts this/);
    expect(messageOf(refused).message).toMatch(/ANONYMOUS_RATE_LIMIT_PER_MINUTE sets this limit\.$/);
  });
});

describe("clientAddress", () => {
  const addressFor = async (hops: number, forwardedFor?: string) => {
    const app = createRouter();
    app.get("/", (c) => c.text(clientAddress(c, hops)));
    const res = await app.request("/", { headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} });
    return res.text();
  };

  it("uses the peer without trusted proxies, whatever X-Forwarded-For says", async () => {
    expect(await addressFor(0, "203.0.113.7")).toBe("unknown"); // app.request has no socket
  });

  it("counts trusted hops from the right of X-Forwarded-For", async () => {
    expect(await addressFor(1, "1.1.1.1, 2.2.2.2, 3.3.3.3")).toBe("3.3.3.3");
    expect(await addressFor(2, "1.1.1.1, 2.2.2.2, 3.3.3.3")).toBe("2.2.2.2");
    expect(await addressFor(2, " 1.1.1.1 ,,3.3.3.3 ")).toBe("1.1.1.1");
  });

  it("stops at the leftmost entry when there are fewer entries than hops, and at the peer with none", async () => {
    expect(await addressFor(3, "1.1.1.1, 2.2.2.2")).toBe("1.1.1.1");
    expect(await addressFor(1)).toBe("unknown");
  });
});

describe("CORS", () => {
  const preflight = (origin: string) =>
    api.app.request("/api/v1/fixtures", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-api-key",
      },
    });

  it("answers an approved origin's preflight without counting it, and exposes the limit headers", async () => {
    aFreshMinute();
    for (let i = 0; i < 5; i++) {
      const res = await preflight("https://scores.example");
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://scores.example");
      expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-api-key");
      expect(res.headers.get("api-version")).toBe("v1");
    }
    // The preflights came from the in-process source; it still has its whole limit (3).
    for (let i = 0; i < 3; i++) ok(await api.read("/api/v1/fixtures"));
    expectError(await api.read("/api/v1/fixtures"), 429, "RATE_LIMIT_EXCEEDED");
    const { apiKey } = await api.aConsumer();
    const res = await api.read("/api/v1/fixtures", { key: apiKey, headers: { origin: "https://scores.example" } });
    ok(res);
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining([
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "x-quota-limit",
        "x-quota-remaining",
        "x-quota-reset",
        "retry-after",
        "api-version",
        "deprecation",
        "link",
      ]),
    );
  });

  const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith("access-control-"));

  it("says nothing of CORS to another origin, or to a request without one, though the answer varies by Origin", async () => {
    const res = await preflight("https://elsewhere.example");
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.status).toBe(405); // routed like any request: the path has no OPTIONS
    for (const headers of [{ origin: "https://elsewhere.example" }, {}] as Record<string, string>[]) {
      const read = await api.read("/api/v1/health", { headers });
      expect(read.status).toBe(200);
      expect(corsHeaders(read.headers)).toEqual([]);
      expect(read.headers.get("vary")).toBe("Origin");
    }
  });
});
