import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { API_KEY_PREFIX_PATTERN } from "../../streams/consumer.js";
import type { ServerSecret } from "../security/server-secret.js";

/**
 * API keys: `ck_<lookup prefix>_<secret>`, e.g. `ck_7Gq2LmX9aB_…` (57 characters).
 *
 * - The prefix (`ck_` and 10 base62 characters) is drawn separately from the secret, so
 *   listing it reveals nothing of the secret; it finds the key's row in one indexed lookup.
 * - The secret is 32 random bytes (256 bits), base64url: guessing is hopeless, so a fast
 *   keyed digest is enough (no slow password hash on every request).
 * - Only the prefix and HMAC-SHA-256 of the whole key under the server secret are stored;
 *   a copy of the database alone cannot test guesses. Digests are compared in constant time.
 * - The raw key exists only in the issue or rotate response: never in an event, a row or a log.
 */
export type IssuedApiKey = {
  /** The raw key, for the one response that shows it. */
  raw: string;
  prefix: string;
  digest: string;
};

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIX_LENGTH = 10;
const SECRET_BYTES = 32;
/** Fixed length: `ck_` + 10 + `_` + 43 (32 bytes in unpadded base64url). */
const KEY_LENGTH = 3 + PREFIX_LENGTH + 1 + 43;
const KEY = new RegExp(`^(${API_KEY_PREFIX_PATTERN})_[0-9A-Za-z_-]{43}$`);

export function newApiKey(secret: ServerSecret): IssuedApiKey {
  // randomInt draws without modulo bias.
  const lookup = Array.from({ length: PREFIX_LENGTH }, () => BASE62[randomInt(BASE62.length)]).join("");
  const prefix = `ck_${lookup}`;
  const raw = `${prefix}_${randomBytes(SECRET_BYTES).toString("base64url")}`;
  return { raw, prefix, digest: digestApiKey(secret, raw) };
}

export const digestApiKey = (secret: ServerSecret, raw: string) => secret.digest("api-key", raw);

/** The lookup prefix of a well-formed key; undefined for anything else (checked by length before any pattern). */
export function parseApiKey(raw: string): string | undefined {
  if (raw.length !== KEY_LENGTH) return undefined;
  return KEY.exec(raw)?.[1];
}

/** Whether two hex digests are equal, in time independent of where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
