import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createTokenVerifier,
  signedInWithin,
  type TokenVerifier,
  type VerifiedIdentity,
} from "../../src/identity/verifier.js";

const issuer = "https://project.supabase.co/auth/v1";
const now = Math.floor(Date.now() / 1000);
const minutesAgo = (minutes: number) => now - minutes * 60;

let verifier: TokenVerifier;
let token: (claims: JWTPayload) => Promise<string>;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256" };
  verifier = createTokenVerifier({ issuer, audience: "authenticated", keys: { jwks: { keys: [jwk] } } });
  token = (claims) =>
    new SignJWT({ sub: "user-1", role: "authenticated", iat: now, exp: now + 3600, ...claims })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("authenticated")
      .sign(privateKey);
});

const identityOf = async (claims: JWTPayload) => verifier.verify(await token(claims));

describe("sign-in time from token claims", () => {
  it("takes OIDC auth_time when present", async () => {
    const identity = await identityOf({ auth_time: minutesAgo(3), amr: [{ method: "password", timestamp: now }] });
    expect(identity.signedInAt).toEqual(new Date(minutesAgo(3) * 1000));
  });

  it("otherwise takes the newest amr timestamp of an active sign-in method", async () => {
    const identity = await identityOf({
      amr: [
        { method: "token_refresh", timestamp: now },
        { method: "otp", timestamp: minutesAgo(5) },
        { method: "password", timestamp: minutesAgo(90) },
      ],
    });
    expect(identity.signedInAt).toEqual(new Date(minutesAgo(5) * 1000));
  });

  it.each([
    ["no amr", {}],
    [
      "only refreshes and anonymous sign-ins",
      {
        amr: [
          { method: "token_refresh", timestamp: now },
          { method: "anonymous", timestamp: now },
        ],
      },
    ],
    ["string-form amr (RFC 8176)", { amr: ["pwd", "mfa"] }],
    ["an amr that is no list", { amr: "pwd" }],
  ])("knows no sign-in time from %s", async (_, claims) => {
    expect((await identityOf(claims)).signedInAt).toBeNull();
  });

  it("never takes iat for sign-in time: a refreshed token of an old session is not fresh", async () => {
    const identity = await identityOf({ iat: now, amr: [{ method: "password", timestamp: minutesAgo(120) }] });
    expect(identity.signedInAt).toEqual(new Date(minutesAgo(120) * 1000));
    expect(signedInWithin(identity, 15)).toBe(false);
  });
});

describe("signedInWithin (the 15-minute rule of account deletion)", () => {
  const at = (minutes: number | null): VerifiedIdentity => ({
    subject: "user-1",
    email: null,
    displayName: null,
    signedInAt: minutes === null ? null : new Date(Date.UTC(2025, 0, 1, 12, 0) - minutes * 60_000),
    expiresAt: new Date(Date.UTC(2025, 0, 1, 13, 0)),
  });
  const noon = new Date(Date.UTC(2025, 0, 1, 12, 0));

  it.each([
    [14, true],
    [15, true],
    [15.5, true], // within the 60 s allowance for clock skew
    [16.5, false],
    [-0.5, true], // the provider's clock slightly ahead
    [-5, false], // a sign-in in the future is no evidence
    [null, false],
  ])("signed in %s minutes ago → %s", (minutes, fresh) => {
    expect(signedInWithin(at(minutes), 15, noon)).toBe(fresh);
  });
});

describe("identity fields from token claims", () => {
  it.each([
    ["user_metadata.name", { user_metadata: { name: "Ann", full_name: "Ann Other" } }, "Ann"],
    ["user_metadata.full_name", { user_metadata: { full_name: "Ann Other" } }, "Ann Other"],
    ["the OIDC name claim", { name: "Ann O." }, "Ann O."],
    ["nothing usable", { user_metadata: { name: "  " } }, null],
  ])("takes the display name from %s", async (_, claims, displayName) => {
    expect((await identityOf(claims)).displayName).toBe(displayName);
  });

  it("reads an empty email (a phone sign-up) as no email", async () => {
    expect((await identityOf({ email: "" })).email).toBeNull();
    expect((await identityOf({ email: "ann@example.com" })).email).toBe("ann@example.com");
  });
});
