import { v5 as uuidv5 } from "uuid";
import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id } from "./shared.js";

/**
 * A batch package a submitter sent for review: what arrived (every file's bytes, so the
 * batch can be validated, re-validated and traced without the sender), who sent it, under
 * which idempotency key, and each step of its lifecycle (docs/batches.md).
 */
export const batchStream = (batchReference: string) => streamId("batch", batchReference);

const NAMESPACE = "6f1c9a52-3d7e-4b08-9a41-c2e5b7d0f813";

/**
 * The reference of the batch an account sends under an idempotency key, derived rather than
 * drawn: two requests with the same key decide on the same stream, and only one batch is
 * received. Keys are the sender's, so the account is part of the name.
 */
export const batchReferenceFor = (ownerAccountId: string, idempotencyKey: string) =>
  uuidv5(`batch\u001f${ownerAccountId}\u001f${idempotencyKey}`, NAMESPACE);

export const CONTRACT_VERSIONS = ["1.0", "1.1"] as const;

/** Lowercase hex SHA-256. */
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** `Idempotency-Key`: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** One file as it arrived: a JSON or CSV body is one file; a manifest's files are many. */
const receivedFile = z.strictObject({
  /** The name it was sent under (a manifest's relative path), or the one given to a body. */
  name: z.string().min(1).max(255),
  mediaType: z.string().min(1).max(127),
  size: z.number().int().min(0),
  sha256: sha256Hex,
  /** The bytes: text as it was sent (UTF-8), or base64 for a binary format. */
  content: z.string(),
  contentEncoding: z.enum(["utf8", "base64"]),
});
export type ReceivedFile = z.infer<typeof receivedFile>;

/**
 * The package is stored as it arrived, before the 202: a crash after the answer never
 * loses it. Its competition was resolved at intake, since who may send and see the batch
 * depends on it; everything else is for validation to judge.
 */
export const BatchReceived = defineEvent({
  type: "BatchReceived",
  category: "batch",
  version: 1,
  schema: z.strictObject({
    batchReference: z.uuid(),
    ownerAccountId: id,
    idempotencyKey: z.string().regex(IDEMPOTENCY_KEY),
    /** SHA-256 of the request body's bytes: the same key with another checksum is another batch. */
    checksum: sha256Hex,
    contractVersion: z.enum(CONTRACT_VERSIONS),
    packageId: z.string().min(1).max(200),
    competitionId: id,
    files: z.array(receivedFile).min(1),
  }),
});

export const batchEvents = [BatchReceived] as const;
export type BatchEvent = EventOf<(typeof batchEvents)[number]>;
export const batchCatalogue = new EventCatalogue(batchEvents);
