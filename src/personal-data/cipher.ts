import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/*
 * The envelope personal values are stored in: AES-256-GCM under the account's key, a fresh
 * 96-bit nonce per value, and the place the value belongs to (event id and field) as
 * authenticated data, so a sealed value opens only where it was sealed: copied into another
 * event or field, it fails like a wrong key or a changed byte does.
 */
const ALGORITHM = "aes-256-gcm";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = "v1:";
export const KEY_BYTES = 32;

/** A personal value as stored: `{"$enc": "v1:<base64url of nonce ‖ tag ‖ ciphertext>"}`; the plaintext is its JSON. */
export type Sealed = { $enc: string };

export class SealBroken extends Error {
  override readonly name = "SealBroken";
}

/** A new account key. */
export const newKey = (): Buffer => randomBytes(KEY_BYTES);

/** Whether a stored value is an envelope; personal values in plain text are never objects. */
export const isSealed = (value: unknown): value is Sealed =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as Partial<Sealed>).$enc === "string";

/** Seals a JSON value under `key` for the place `context` names. */
export function seal(key: Uint8Array, value: unknown, context: string): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return { $enc: VERSION + Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString("base64url") };
}

/** The value sealed under `key` for `context`; throws SealBroken for any other key, place or bytes. */
export function unseal(key: Uint8Array, sealed: Sealed, context: string): unknown {
  if (!sealed.$enc.startsWith(VERSION)) throw new SealBroken(`unknown envelope version in ${context}`);
  const bytes = Buffer.from(sealed.$enc.slice(VERSION.length), "base64url");
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new SealBroken(`truncated envelope in ${context}`);
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, NONCE_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  try {
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
    return JSON.parse(plaintext.toString("utf8"));
  } catch {
    throw new SealBroken(`envelope in ${context} does not open with its account's key`);
  }
}
