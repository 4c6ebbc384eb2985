import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsumerApi, openConsumerApi } from "../support/consumer-api.js";

/*
 * The security headers every answer carries (issue 18), on the real app: a JSON answer can
 * load and run nothing in a browser; the documentation page runs only its own scripts and its
 * one inline script by hash; answers to credentials are kept by no cache; HSTS only where TLS
 * carried the request.
 */

let api: ConsumerApi;
beforeAll(async () => {
  api = await openConsumerApi({ trustedProxyHops: 1 });
}, 60_000);
afterAll(async () => api?.close());

const get = (path: string, headers: Record<string, string> = {}) => api.app.request(path, { headers });

describe("security headers", () => {
  it("lock down JSON answers, errors included", async () => {
    for (const res of [await get("/api/v1/fixtures"), await get("/api/v1/nothing-here")]) {
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("let the documentation page run its own scripts and its inline one by hash, nothing else", async () => {
    const res = await get("/docs");
    const html = await res.text();
    const policy = res.headers.get("content-security-policy") ?? "";
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? "");
    expect(inline).toHaveLength(1);
    const hash = createHash("sha256")
      .update(inline[0] as string)
      .digest("base64");
    expect(policy).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(policy).toMatch(/^default-src 'none';/);
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("keep answers to credentials out of every cache, and keyed reads out of shared ones", async () => {
    const bearer = await get("/api/v1/auth/me", { authorization: `Bearer ${api.admin.token}` });
    expect(bearer.status).toBe(200);
    expect(bearer.headers.get("cache-control")).toBe("no-store");
    const refused = await get("/api/v1/auth/me", { authorization: "Bearer nonsense" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("cache-control")).toBe("no-store");

    const { apiKey } = await api.aConsumer();
    const keyed = await get(`/api/v1/fixtures/${api.fixtureId}`, { "x-api-key": apiKey });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get("cache-control")).toBe("private, no-cache");
    expect((await get(`/api/v1/fixtures/${api.fixtureId}`)).headers.get("cache-control")).toBe("no-cache");
  });

  it("send HSTS only when a trusted proxy says TLS carried the request", async () => {
    const tls = await get("/api/v1/fixtures", { "x-forwarded-proto": "https" });
    expect(tls.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(
      (await get("/api/v1/fixtures", { "x-forwarded-proto": "http" })).headers.get("strict-transport-security"),
    ).toBeNull();
    const untrusted = await openConsumerApi();
    try {
      const res = await untrusted.app.request("/api/v1/fixtures", { headers: { "x-forwarded-proto": "https" } });
      expect(res.headers.get("strict-transport-security")).toBeNull();
    } finally {
      await untrusted.close();
    }
  }, 60_000);
});
