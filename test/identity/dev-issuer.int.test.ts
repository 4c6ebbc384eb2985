import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings, Secret } from "../../src/config.js";
import { DEV_KEY_FILE, openDevIssuer } from "../../src/identity/dev-issuer.js";
import { openIdentity } from "../../src/identity/open.js";
import { createTokenVerifier, InvalidToken, signedInWithin } from "../../src/identity/verifier.js";
import { startIdentityProvider } from "../support/identity-provider.js";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "cricket-identity-"));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const verifierOf = (issuer: Awaited<ReturnType<typeof openDevIssuer>>) =>
  createTokenVerifier({ issuer: issuer.issuer, audience: issuer.audience, keys: { jwks: issuer.jwks } });

describe("development issuer", () => {
  it("creates its key once in DATA_DIR, readable by its owner only, and reuses it", async () => {
    const first = await openDevIssuer(dataDir);
    const file = path.join(dataDir, DEV_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = await first.issueToken({ subject: "alice" });

    const second = await openDevIssuer(dataDir);
    expect(second.jwks).toEqual(first.jwks);
    await expect(verifierOf(second).verify(token)).resolves.toMatchObject({ subject: "alice" });
  });

  it("publishes only the public half of its key", async () => {
    const { jwks } = await openDevIssuer(dataDir);
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
  });

  it("settles on one key when processes open a fresh DATA_DIR at the same time", async () => {
    const issuers = await Promise.all(Array.from({ length: 8 }, () => openDevIssuer(path.join(dataDir, "fresh"))));
    expect(new Set(issuers.map((i) => i.jwks.keys[0]?.kid)).size).toBe(1);
  });

  it("issues Supabase-shaped tokens its verifier accepts", async () => {
    const issuer = await openDevIssuer(dataDir);
    const now = new Date();
    const token = await issuer.issueToken(
      { subject: "alice", email: "alice@example.com", displayName: "Alice", signedInMinutesAgo: 20 },
      now,
    );
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(decodeJwt(token)).toMatchObject({
      iss: "cricket-dev-issuer",
      aud: "authenticated",
      sub: "alice",
      role: "authenticated",
      session_id: expect.any(String),
      amr: [{ method: "password", timestamp: Math.floor(now.getTime() / 1000) - 1200 }],
      user_metadata: { name: "Alice" },
    });
    const identity = await verifierOf(issuer).verify(token);
    expect(identity).toMatchObject({ subject: "alice", email: "alice@example.com", displayName: "Alice" });
    expect(signedInWithin(identity, 15)).toBe(false);
    expect(signedInWithin(await verifierOf(issuer).verify(await issuer.issueToken({ subject: "alice" })), 15)).toBe(
      true,
    );
  });

  it("issues tokens that expire", async () => {
    const issuer = await openDevIssuer(dataDir);
    const token = await issuer.issueToken({ subject: "alice", expiresInMinutes: 1 }, new Date(Date.now() - 3_600_000));
    await expect(verifierOf(issuer).verify(token)).rejects.toMatchObject({ reason: "expired" });
  });

  it("refuses a key file that is not its own, naming the file", async () => {
    for (const content of [JSON.stringify({ key: { kty: "RSA" } }), "not json"]) {
      await writeFile(path.join(dataDir, DEV_KEY_FILE), content);
      await expect(openDevIssuer(dataDir)).rejects.toThrow(/dev-issuer\.json is not a development issuer key/);
    }
  });
});

describe("openIdentity", () => {
  it("trusts the development issuer of DATA_DIR on the embedded default", async () => {
    const identity = await openIdentity(loadSettings({ DATA_DIR: dataDir }));
    expect(identity.devIssuer).toBeDefined();
    expect(identity.providerAdmin).toBeUndefined();
    const token = await identity.devIssuer?.issueToken({ subject: "alice" });
    await expect(identity.verifier.verify(token)).resolves.toMatchObject({ subject: "alice" });
    expect(JSON.parse(await readFile(path.join(dataDir, DEV_KEY_FILE), "utf8"))).toHaveProperty("key.d");
  });

  it("trusts only the configured provider once AUTH_JWKS_URL is set, and refuses development tokens", async () => {
    const provider = await startIdentityProvider();
    try {
      await provider.addKey("ES256");
      const devToken = await (await openDevIssuer(dataDir)).issueToken({ subject: "alice" });
      const settings = loadSettings({
        DATA_DIR: dataDir,
        AUTH_JWKS_URL: provider.jwksUrl,
        AUTH_ISSUER: provider.issuer,
      });
      const identity = await openIdentity(settings);
      expect(identity.devIssuer).toBeUndefined();
      expect(identity.providerAdmin).toBeUndefined();
      await expect(identity.verifier.verify(await provider.accessToken({ sub: "bob" }))).resolves.toMatchObject({
        subject: "bob",
      });
      await expect(identity.verifier.verify(devToken)).rejects.toBeInstanceOf(InvalidToken);

      const withAdmin = await openIdentity({
        ...settings,
        authAdminUrl: provider.authUrl,
        authAdminSecret: new Secret(provider.secret),
      });
      expect(withAdmin.providerAdmin).toBeDefined();
      expect(withAdmin.passwordSignIn).toBeUndefined();

      const withSignIn = await openIdentity({
        ...settings,
        authSignInUrl: provider.authUrl,
        authPublishableKey: provider.publishableKey,
      });
      const subject = provider.addUser("pat@example.com", { password: "pw", name: "Pat" });
      const token = await withSignIn.passwordSignIn?.("pat@example.com", "pw");
      await expect(withSignIn.verifier.verify(token ?? "")).resolves.toMatchObject({ subject });
    } finally {
      await provider.close();
    }
  });
});
