import { z } from "zod";

/** Opaque, immutable, never reused identifier. */
export const id = z.string().min(1).max(128);

/** A calendar date, YYYY-MM-DD. */
export const isoDate = z.iso.date();

/** `<namespace>:<entityType>:<value>`, e.g. `cricsheet:participant:29e95537`. */
export const sourceId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:[a-z][a-z_]*:.+$/, "expected <namespace>:<entityType>:<value>");

export const NAME_MAX_LENGTH = 200;
export const name = z.string().trim().min(1).max(NAME_MAX_LENGTH);

/** A name from outside (a provider's user-editable display name) trimmed and cut, on a code point, to what `name` holds. */
export function fitName(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= NAME_MAX_LENGTH) return trimmed;
  let cut = "";
  for (const character of trimmed) {
    if (cut.length + character.length > NAME_MAX_LENGTH) break;
    cut += character;
  }
  return cut.trimEnd();
}
