import { decodeJwt, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTokenVerifier, InvalidToken, type KeySource } from "../../src/identity/verifier.js";
import { type IdentityProvider, startIdentityProvider } from "../support/identity-provider.js";

let provider: IdentityProvider;
let es256: string;
let rs256: string;

beforeAll(async () => {
  provider = await startIdentityProvider();
  es256 = await provider.addKey("ES256");
  rs256 = await provider.addKey("RS256");
});
afterAll(() => provider.close());
afterEach(() => {
  provider.failures.jwks = undefined;
});

const verifierFor = (keys: Partial<Extract<KeySource, { jwksUrl: unknown }>> = {}) =>
  createTokenVerifier({
    issuer: provider.issuer,
    audience: "authenticated",
    keys: { jwksUrl: provider.jwksUrl, ...keys },
  });

const refusal = async (token: string | undefined, verifier = verifierFor()) => {
  const error = await verifier.verify(token).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidToken);
  return (error as InvalidToken).reason;
};

const now = () => Math.floor(Date.now() / 1000);

describe("token verifier against the provider's JWKS", () => {
  it.each([["ES256"], ["RS256"]])("accepts a valid %s token and reads the identity from its claims", async (alg) => {
    const signedIn = now() - 120;
    const token = await provider.accessToken(
      { sub: "user-1", email: "jo@example.com", amr: [{ method: "password", timestamp: signedIn }] },
      { kid: alg === "ES256" ? es256 : rs256 },
    );
    const identity = await verifierFor().verify(token);
    expect(identity).toEqual({
      subject: "user-1",
      email: "jo@example.com",
      displayName: "Jo Bloggs",
      signedInAt: new Date(signedIn * 1000),
      expiresAt: expect.any(Date),
    });
    expect(identity.expiresAt.getTime() / 1000).toBe(decodeJwt(token).exp);
  });

  it("fetches the key set once and serves later tokens from its cache", async () => {
    const verifier = verifierFor();
    const before = provider.requests.jwks;
    for (let i = 0; i < 5; i++) await verifier.verify(await provider.accessToken());
    expect(provider.requests.jwks - before).toBe(1);
  });

  it.each([
    ["expired", "expired", { exp: now() - 120 }],
    ["not valid before a future nbf", "not_yet_valid", { nbf: now() + 600 }],
    ["from another issuer", "wrong_issuer", { iss: "https://other.supabase.co/auth/v1" }],
    ["for another audience", "wrong_audience", { aud: "service" }],
    ["without a subject", "missing_claim", { sub: undefined }],
    ["without an expiry", "missing_claim", { exp: undefined }],
    ["with an empty subject", "invalid_claims", { sub: "" }],
    ["with an expiry that is no number", "malformed", { exp: "tomorrow" }],
    ["that is Supabase's anon key", "role_not_allowed", { role: "anon" }],
    ["that is Supabase's service_role key", "role_not_allowed", { role: "service_role" }],
    ["of an anonymous sign-in", "anonymous_user", { is_anonymous: true }],
  ])("refuses a token %s: %s", async (_, reason, claims) => {
    expect(await refusal(await provider.accessToken(claims))).toBe(reason);
  });

  it("accepts a token expired by less than the clock tolerance (30 s)", async () => {
    await expect(verifierFor().verify(await provider.accessToken({ exp: now() - 10 }))).resolves.toBeTruthy();
  });

  it.each([
    ["no token", undefined, "missing"],
    ["an empty token", "", "missing"],
    ["not a JWT", "not-a-token", "malformed"],
    ["three garbage parts", "a.b.c", "malformed"],
    ["an absurdly long token", `${"a".repeat(20_000)}.b.c`, "malformed"],
  ])("refuses %s", async (_, token, reason) => {
    expect(await refusal(token)).toBe(reason);
  });

  it("refuses alg none", async () => {
    const token = new UnsecuredJWT({ sub: "user-1", iss: provider.issuer, aud: "authenticated" })
      .setExpirationTime("1h")
      .encode();
    expect(await refusal(token)).toBe("algorithm_not_allowed");
  });

  it("refuses HS256 signed with the provider's public key (algorithm confusion)", async () => {
    const pem = await provider.publicKeyPem(es256);
    const token = await new SignJWT({ sub: "user-1", role: "authenticated" })
      .setProtectedHeader({ alg: "HS256", kid: es256 })
      .setIssuer(provider.issuer)
      .setAudience("authenticated")
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(pem));
    expect(await refusal(token)).toBe("algorithm_not_allowed");
  });

  it("refuses a token whose signature does not match its key", async () => {
    const genuine = await provider.accessToken({}, { kid: es256 });
    const [header, payload] = genuine.split(".");
    const other = (await provider.accessToken({ sub: "someone-else" }, { kid: es256 })).split(".")[2];
    expect(await refusal(`${header}.${payload}.${other}`)).toBe("invalid_signature");
  });

  it("refuses a token signed by a key the provider does not publish", async () => {
    const stranger = await provider.addKey("ES256");
    provider.unpublishKey(stranger);
    expect(await refusal(await provider.accessToken({}, { kid: stranger }))).toBe("unknown_key");
  });

  it("picks up a key published after its cache was filled, once the cooldown has passed", async () => {
    const verifier = verifierFor({ cooldownMs: 0 });
    await verifier.verify(await provider.accessToken({}, { kid: es256 }));
    const rotated = await provider.addKey("ES256");
    await expect(verifier.verify(await provider.accessToken({}, { kid: rotated }))).resolves.toBeTruthy();
  });

  it("does not refetch for an unknown kid within the cooldown", async () => {
    const verifier = verifierFor({ cooldownMs: 60_000 });
    await verifier.verify(await provider.accessToken({}, { kid: es256 }));
    const fetched = provider.requests.jwks;
    const late = await provider.addKey("ES256");
    expect(await refusal(await provider.accessToken({}, { kid: late }), verifier)).toBe("unknown_key");
    expect(await refusal(await provider.accessToken({}, { kid: late }), verifier)).toBe("unknown_key");
    expect(provider.requests.jwks).toBe(fetched);
  });

  it("stops accepting a rotated-out key once its cached key set expires", async () => {
    const retiring = await provider.addKey("RS256");
    const verifier = verifierFor({ cacheMaxAgeMs: 200 });
    await verifier.verify(await provider.accessToken({}, { kid: retiring }));
    provider.unpublishKey(retiring);
    // Still cached: a revoked key keeps verifying until the cache ages out.
    await expect(verifier.verify(await provider.accessToken({}, { kid: retiring }))).resolves.toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await refusal(await provider.accessToken({}, { kid: retiring }), verifier)).toBe("unknown_key");
  });

  it.each([["status_500"], ["html"], ["wrong_shape"]] as const)(
    "reports jwks_unavailable when the JWKS endpoint answers %s",
    async (mode) => {
      provider.failures.jwks = mode;
      expect(await refusal(await provider.accessToken())).toBe("jwks_unavailable");
    },
  );

  it("gives up on a silent JWKS endpoint after its timeout", async () => {
    provider.failures.jwks = "hang";
    const started = performance.now();
    expect(await refusal(await provider.accessToken(), verifierFor({ timeoutMs: 200 }))).toBe("jwks_unavailable");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("reports jwks_unavailable when nothing listens at the JWKS URL", async () => {
    const verifier = createTokenVerifier({
      issuer: provider.issuer,
      audience: "authenticated",
      keys: { jwksUrl: "http://127.0.0.1:1/auth/v1/.well-known/jwks.json" },
    });
    expect(await refusal(await provider.accessToken(), verifier)).toBe("jwks_unavailable");
  });

  it("gives a safe message that names no claim value", async () => {
    const error = (await verifierFor()
      .verify(await provider.accessToken({ iss: "https://evil.example" }))
      .catch((e: unknown) => e)) as InvalidToken;
    expect(error.message).toBe("The bearer token was issued by an untrusted issuer.");
    expect(error.message).not.toContain("evil");
  });

  it("refuses to be configured with a symmetric algorithm", () => {
    expect(() =>
      createTokenVerifier({
        issuer: provider.issuer,
        audience: "authenticated",
        keys: { jwks: { keys: [] } },
        // @ts-expect-error HS256 is not an asymmetric algorithm
        algorithms: ["HS256"],
      }),
    ).toThrow(/HS256/);
  });
});
