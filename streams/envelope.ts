import { z } from "zod";

/** Who and what caused an event; every event carries it (DESIGN.md §3). */
export const eventMetadataSchema = z.strictObject({
  actor: z.string().min(1),
  requestId: z.string().min(1).optional(),
  causationId: z.string().min(1).optional(),
  correlationId: z.string().min(1).optional(),
  occurredAt: z.iso.datetime({ offset: true }),
  schemaVersion: z.number().int().positive(),
});
export type EventMetadata = z.infer<typeof eventMetadataSchema>;

/** A stream id is `<category>-<id>`; categories are fixed, ids opaque. */
export const STREAM_CATEGORIES = [
  "fixture",
  "competition",
  "season",
  "team",
  "participant",
  "venue",
  "account",
  "consumer",
  "batch",
  "release",
  "vocabulary",
] as const;
export type StreamCategory = (typeof STREAM_CATEGORIES)[number];

export const streamId = (category: StreamCategory, id: string) => `${category}-${id}`;

export const categoryOf = (stream: string): string => stream.slice(0, Math.max(0, stream.indexOf("-")));

/** The id part of a stream id: `fixture-123` → `123`. */
export const streamEntityId = (stream: string) => stream.slice(stream.indexOf("-") + 1);
