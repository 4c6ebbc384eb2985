import { randomUUID } from "node:crypto";
import path from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JSONWebKeySet, SignJWT } from "jose";
import { z } from "zod";
import { readOrCreateFile } from "../security/owned-file.js";

/**
 * The built-in development issuer of the embedded default: a signing key of its own in
 * DATA_DIR, so a newcomer can mint tokens (`cricket token`) without an identity provider.
 * Its tokens have the shape of Supabase access tokens, so they exercise the same code path
 * as production ones. It is trusted only while AUTH_JWKS_URL is unset.
 */
export const DEV_ISSUER = "cricket-dev-issuer";
export const DEV_AUDIENCE = "authenticated";
export const DEV_KEY_FILE = "dev-issuer.json";

export type DevTokenRequest = {
  subject: string;
  email?: string;
  displayName?: string;
  /** How long ago the user signed in (the `amr` timestamp); 0 by default. */
  signedInMinutesAgo?: number;
  expiresInMinutes?: number;
};

export type DevIssuer = {
  issuer: string;
  audience: string;
  /** The public key set, for a verifier's local key source. */
  jwks: JSONWebKeySet;
  issueToken(request: DevTokenRequest, now?: Date): Promise<string>;
};

const keyFileSchema = z.object({
  key: z.object({
    kty: z.literal("EC"),
    crv: z.literal("P-256"),
    x: z.string(),
    y: z.string(),
    d: z.string(),
    kid: z.string(),
  }),
  createdAt: z.string(),
});
type KeyFile = z.infer<typeof keyFileSchema>;

async function newKeyFile(): Promise<KeyFile> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  const parsed = keyFileSchema.shape.key.omit({ kid: true }).parse(jwk);
  return { key: { ...parsed, kid: await calculateJwkThumbprint(jwk) }, createdAt: new Date().toISOString() };
}

async function loadOrCreateKeyFile(file: string): Promise<KeyFile> {
  const text = await readOrCreateFile(file, async () => JSON.stringify(await newKeyFile(), null, 2));
  const parsed = keyFileSchema.safeParse(parseJson(text));
  if (!parsed.success) throw new Error(`${file} is not a development issuer key; delete it to create a new one`);
  return parsed.data;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Opens (creating on first use) the development issuer whose key lives in `dataDir`. */
export async function openDevIssuer(dataDir: string): Promise<DevIssuer> {
  const { key } = await loadOrCreateKeyFile(path.join(dataDir, DEV_KEY_FILE));
  const signingKey = await importJWK({ ...key, alg: "ES256" }, "ES256");
  const { d: _private, ...publicJwk } = key;

  return {
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
    jwks: { keys: [{ ...publicJwk, alg: "ES256", use: "sig" }] },
    async issueToken(request, now = new Date()) {
      const { subject, email, displayName, signedInMinutesAgo = 0, expiresInMinutes = 60 } = request;
      if (!subject.trim()) throw new RangeError("a token needs a subject");
      if (!(signedInMinutesAgo >= 0)) throw new RangeError("signedInMinutesAgo must be zero or more");
      if (!(expiresInMinutes > 0)) throw new RangeError("expiresInMinutes must be more than zero");
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({
        role: "authenticated",
        aal: "aal1",
        session_id: randomUUID(),
        email: email ?? "",
        phone: "",
        is_anonymous: false,
        amr: [{ method: "password", timestamp: issuedAt - Math.round(signedInMinutesAgo * 60) }],
        app_metadata: { provider: "email", providers: ["email"] },
        user_metadata: displayName ? { name: displayName } : {},
      })
        .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
        .setIssuer(DEV_ISSUER)
        .setAudience(DEV_AUDIENCE)
        .setSubject(subject)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + Math.round(expiresInMinutes * 60))
        .sign(signingKey);
    },
  };
}
