import { describe, expect, it } from "vitest";
import { rememberingVerifier } from "../../src/identity/remembered-tokens.js";
import { InvalidToken, type TokenVerifier, type VerifiedIdentity } from "../../src/identity/verifier.js";

const T0 = Date.UTC(2026, 10, 26, 12, 0);

/** A verifier that accepts `good-*` tokens, expiring 10 minutes after T0, and counts its calls. */
function countingVerifier() {
  const calls: (string | undefined)[] = [];
  const verifier: TokenVerifier = {
    async verify(token) {
      calls.push(token);
      if (!token?.startsWith("good-")) throw new InvalidToken("invalid_signature");
      return identityOf(token);
    },
  };
  return { verifier, calls };
}

const identityOf = (token: string): VerifiedIdentity => ({
  subject: token,
  email: null,
  displayName: null,
  signedInAt: null,
  expiresAt: new Date(T0 + 10 * 60_000),
});

function remembering(options: { maxTokens?: number; maxAgeMs?: number } = {}) {
  const clock = { now: T0 };
  const inner = countingVerifier();
  const verifier = rememberingVerifier(inner.verifier, { ...options, now: () => clock.now });
  return { verifier, calls: inner.calls, clock };
}

describe("a verifier remembering the tokens it accepted", () => {
  it("verifies an accepted token once, then answers the same identity", async () => {
    const { verifier, calls } = remembering();
    expect(await verifier.verify("good-1")).toEqual(identityOf("good-1"));
    expect(await verifier.verify("good-1")).toEqual(identityOf("good-1"));
    expect(calls).toEqual(["good-1"]);
  });

  it("verifies again once the token has expired, so the verifier refuses it as before", async () => {
    const { verifier, calls, clock } = remembering({ maxAgeMs: 60 * 60_000 });
    await verifier.verify("good-1");
    clock.now = T0 + 10 * 60_000;
    await verifier.verify("good-1");
    expect(calls).toEqual(["good-1", "good-1"]);
  });

  it("verifies again after maxAgeMs, even before the token expires", async () => {
    const { verifier, calls, clock } = remembering({ maxAgeMs: 60_000 });
    await verifier.verify("good-1");
    clock.now = T0 + 59_999;
    await verifier.verify("good-1");
    clock.now = T0 + 60_000;
    await verifier.verify("good-1");
    expect(calls).toEqual(["good-1", "good-1"]);
  });

  it("never remembers a refusal: a bad token is verified, and refused, every time", async () => {
    const { verifier, calls } = remembering();
    await expect(verifier.verify("forged")).rejects.toBeInstanceOf(InvalidToken);
    await expect(verifier.verify("forged")).rejects.toBeInstanceOf(InvalidToken);
    await expect(verifier.verify(undefined)).rejects.toBeInstanceOf(InvalidToken);
    expect(calls).toEqual(["forged", "forged", undefined]);
  });

  it("keeps at most maxTokens, forgetting the least recently used first", async () => {
    const { verifier, calls } = remembering({ maxTokens: 2 });
    for (const token of ["good-1", "good-2", "good-1", "good-3", "good-1", "good-2"]) await verifier.verify(token);
    expect(calls).toEqual(["good-1", "good-2", "good-3", "good-2"]);
  });
});
