import { z } from "zod";

/** Opaque, immutable, never reused identifier. */
export const id = z.string().min(1).max(128);

/** A calendar date, YYYY-MM-DD. */
export const isoDate = z.iso.date();

/** `<namespace>:<entityType>:<value>`, e.g. `cricsheet:participant:29e95537`. */
export const sourceId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]*:[a-z][a-z_]*:.+$/, "expected <namespace>:<entityType>:<value>");

export const name = z.string().trim().min(1).max(200);
