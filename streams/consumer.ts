import { z } from "zod";
import { defineEvent, EventCatalogue, type EventOf } from "./catalogue.js";
import { streamId } from "./envelope.js";
import { id, name } from "./shared.js";

/**
 * An API consumer: a client of the public reads with its own limits, owned by the
 * administrator who issued it, and the lifecycle of its keys. Only a key's lookup prefix
 * and keyed digest are facts here; the raw key is shown once and never stored.
 */
export const consumerStream = (consumerId: number) => streamId("consumer", String(consumerId));

/** Consumer and key ids are positive integers (the specification's "numeric, without zero"). */
const positiveId = z.number().int().positive();

/** `ck_` and ten base62 characters: the public, listed handle of a key (src/consumers/api-key.ts). */
export const API_KEY_PREFIX_PATTERN = "ck_[0-9A-Za-z]{10}";
/** HMAC-SHA-256, hex, under the server secret's "api-key" purpose. */
const digest = z.string().regex(/^[0-9a-f]{64}$/);

/*
 * Limits are only positive integers here: the bounds an administrator may choose are the
 * API's policy (src/consumer-api/admin-consumers.ts) and may change; a stored fact may not.
 */
export const ConsumerIssued = defineEvent({
  type: "ConsumerIssued",
  category: "consumer",
  version: 1,
  schema: z.strictObject({
    consumerId: positiveId,
    ownerAccountId: id,
    name,
    rateLimitPerMinute: positiveId,
    dailyQuota: positiveId,
  }),
});

/** Key ids count from 1 within their consumer. */
export const ApiKeyIssued = defineEvent({
  type: "ApiKeyIssued",
  category: "consumer",
  version: 1,
  schema: z.strictObject({
    keyId: positiveId,
    prefix: z.string().regex(new RegExp(`^${API_KEY_PREFIX_PATTERN}$`)),
    digest,
  }),
});

/** `rotated`: replaced by the key issued in the same append; `revoked`: revoked on its own. */
export const ApiKeyRevoked = defineEvent({
  type: "ApiKeyRevoked",
  category: "consumer",
  version: 1,
  schema: z.strictObject({ keyId: positiveId, cause: z.enum(["rotated", "revoked"]) }),
});

export const consumerEvents = [ConsumerIssued, ApiKeyIssued, ApiKeyRevoked] as const;
export type ConsumerEvent = EventOf<(typeof consumerEvents)[number]>;
export const consumerCatalogue = new EventCatalogue(consumerEvents);
