import { z } from "zod";

/** Opaque, immutable, never reused identifier. */
export const id = z.string().min(1).max(128);

/** A calendar date, YYYY-MM-DD. */
export const isoDate = z.iso.date();

/** `<namespace>:<entityType>:<value>`, e.g. `cricsheet:participant:29e95537`. */
export const sourceId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:[a-z][a-z_]*:.+$/, "expected <namespace>:<entityType>:<value>");

/**
 * Text the database can hold. PostgreSQL's text and jsonb refuse U+0000, and jsonb refuses
 * an unpaired UTF-16 surrogate, yet JSON (`"\u0000"`, `"\ud800"`) and URLs (`%00`) carry both.
 */
const UNSTORABLE = /[\0\p{Cs}]/u;
const EVERY_UNSTORABLE = new RegExp(UNSTORABLE, "gu");
export const storable = (text: string): boolean => !UNSTORABLE.test(text);

export const NAME_MAX_LENGTH = 200;
export const name = z.string().trim().min(1).max(NAME_MAX_LENGTH);

/**
 * A name from outside (a provider's user-editable display name) made storable (U+FFFD for
 * what the database cannot hold), trimmed and cut, on a code point, to what `name` holds.
 */
export function fitName(text: string): string {
  const trimmed = text.replace(EVERY_UNSTORABLE, "\ufffd").trim();
  if (trimmed.length <= NAME_MAX_LENGTH) return trimmed;
  let cut = "";
  for (const character of trimmed) {
    if (cut.length + character.length > NAME_MAX_LENGTH) break;
    cut += character;
  }
  return cut.trimEnd();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID of any version, in either letter case: what the database's uuid type can hold. */
export const isUuid = (text: string): boolean => UUID.test(text);
