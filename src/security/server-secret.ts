import { createHmac, randomBytes } from "node:crypto";
import path from "node:path";
import type { Secret } from "../config.js";
import { readOrCreateFile } from "./owned-file.js";

export const SERVER_SECRET_FILE = "server-secret";

/** What a keyed digest is for; each purpose digests under its own key. */
export type DigestPurpose = "api-key" | "client-address" | "sign-in-email";

/**
 * The server-only key of every keyed digest the service keeps instead of a value: API keys
 * (only their digest is stored), client addresses (anonymous limits count per digest) and
 * the emails password sign-ins are counted by.
 * Keeping it out of the database means a copy of the database alone cannot test guesses.
 */
export type ServerSecret = {
  /** HMAC-SHA-256 of `value` under the purpose's key, hex. */
  digest(purpose: DigestPurpose, value: string): string;
};

export function serverSecret(key: string | Buffer): ServerSecret {
  const keys = new Map<DigestPurpose, Buffer>();
  const keyFor = (purpose: DigestPurpose) => {
    let derived = keys.get(purpose);
    if (!derived) {
      derived = createHmac("sha256", key).update(`cricket/${purpose}`).digest();
      keys.set(purpose, derived);
    }
    return derived;
  };
  return { digest: (purpose, value) => createHmac("sha256", keyFor(purpose)).update(value).digest("hex") };
}

/**
 * SERVER_SECRET when set (every instance of a deployment must share it), else a random key
 * kept in DATA_DIR, created on first start: right for the single embedded instance.
 */
export async function openServerSecret(settings: {
  dataDir: string;
  serverSecret: Secret | undefined;
}): Promise<ServerSecret> {
  if (settings.serverSecret) return serverSecret(settings.serverSecret.reveal());
  const file = path.join(settings.dataDir, SERVER_SECRET_FILE);
  const text = await readOrCreateFile(file, () => `${randomBytes(32).toString("base64url")}\n`);
  const key = text.trim();
  if (key.length < 32) throw new Error(`${file} does not hold a server secret; delete it to create a new one`);
  return serverSecret(key);
}
