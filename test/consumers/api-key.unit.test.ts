import { describe, expect, it } from "vitest";
import { digestApiKey, newApiKey, parseApiKey, sameDigest } from "../../src/consumers/api-key.js";
import { serverSecret } from "../../src/security/server-secret.js";

const secret = serverSecret("a test server secret of at least thirty-two characters");

describe("a new API key", () => {
  it("is ck_, a 10-character base62 prefix, _, and 32 random bytes in base64url", () => {
    const key = newApiKey(secret);
    expect(key.raw).toMatch(/^ck_[0-9A-Za-z]{10}_[0-9A-Za-z_-]{43}$/);
    expect(Buffer.from(key.raw.slice(14), "base64url")).toHaveLength(32);
    expect(key.prefix).toBe(key.raw.slice(0, 13));
  });

  it("is stored as the keyed digest of the whole key, never as itself", () => {
    const key = newApiKey(secret);
    expect(key.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(key.digest).toBe(digestApiKey(secret, key.raw));
    expect(key.digest).not.toContain(key.raw.slice(14));
  });

  it("digests differently under another server secret: a database copy alone cannot test guesses", () => {
    const key = newApiKey(secret);
    expect(digestApiKey(serverSecret("another secret, also thirty-two characters long"), key.raw)).not.toBe(key.digest);
  });

  it("never repeats: neither prefix nor secret", () => {
    const keys = Array.from({ length: 500 }, () => newApiKey(secret));
    expect(new Set(keys.map((k) => k.prefix)).size).toBe(500);
    expect(new Set(keys.map((k) => k.raw.slice(14))).size).toBe(500);
  });
});

describe("parsing a presented key", () => {
  it("gives the lookup prefix of a well-formed key", () => {
    const key = newApiKey(secret);
    expect(parseApiKey(key.raw)).toBe(key.prefix);
  });

  it("reads a secret that contains _ and - (base64url) correctly", () => {
    const raw = `ck_AbCdEfGh12_${"_-".repeat(21)}x`;
    expect(parseApiKey(raw)).toBe("ck_AbCdEfGh12");
  });

  const good = newApiKey(secret).raw;
  it.each([
    ["empty", ""],
    ["another scheme", `sk_${good.slice(3)}`],
    ["a short prefix", `ck_AbCdEfGh1_${good.slice(14)}`],
    ["a non-base62 prefix", `ck_AbCdEfGh1-_${good.slice(14)}`],
    ["a short secret", good.slice(0, -1)],
    ["a long secret", `${good}A`],
    ["padding", `${good.slice(0, -1)}=`],
    ["surrounding space", ` ${good}`],
    ["a trailing newline", `${good}\n`],
    ["a huge value", "ck_".padEnd(100_000, "A")],
  ])("gives nothing for %s", (_, raw) => expect(parseApiKey(raw)).toBeUndefined());
});

describe("comparing digests", () => {
  it("is true only for equal digests", () => {
    const a = digestApiKey(secret, "a");
    expect(sameDigest(a, a)).toBe(true);
    expect(sameDigest(a, digestApiKey(secret, "b"))).toBe(false);
  });

  it("is false, not an error, for digests of different lengths", () => {
    const a = digestApiKey(secret, "a");
    expect(sameDigest(a, a.slice(0, 62))).toBe(false);
    expect(sameDigest(a, "")).toBe(false);
  });
});
