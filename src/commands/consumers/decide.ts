import type { ConsumerEvent } from "../../../streams/consumer.js";
import {
  type Consumer,
  type ConsumerState,
  evolveConsumer,
  initialConsumerState,
} from "../../../streams/consumer-state.js";
import type { Decider } from "../handle.js";
import { ApiKeyNotFound, ConsumerIdTaken, ConsumerNotFound } from "./errors.js";

/** A new key as commands carry it: its lookup prefix and digest, never the raw key. */
export type NewKey = { prefix: string; digest: string };

/** Every command names the consumer and the administrator acting; a consumer is visible only to its owner. */
export type IssueConsumer = {
  type: "IssueConsumer";
  consumerId: number;
  ownerAccountId: string;
  name: string;
  rateLimitPerMinute: number;
  dailyQuota: number;
  key: NewKey;
};
export type RotateKeys = { type: "RotateKeys"; consumerId: number; ownerAccountId: string; key: NewKey };
export type RevokeKey = { type: "RevokeKey"; consumerId: number; ownerAccountId: string; keyId: number };

export type ConsumerCommand = IssueConsumer | RotateKeys | RevokeKey;

/**
 * Requirements (the specification's "API key" states and "Consumer key administration"):
 * - issuing claims a consumer id not used before, and issues its first key (key id 1) in
 *   the same append;
 * - only the owner sees a consumer: a missing and another administrator's consumer are the
 *   same not-found;
 * - rotating revokes every active key (cause `rotated`), then issues one key with the next
 *   key id; a consumer without active keys just gets the new one;
 * - revoking an active key revokes it; revoking a revoked key changes nothing (an idempotent
 *   DELETE); a key id the consumer never had is not found;
 * - key ids count 1, 2, 3… within their consumer and are never reused.
 */
export const consumerDecider: Decider<ConsumerCommand, ConsumerState, ConsumerEvent> = {
  initialState: initialConsumerState,
  evolve: evolveConsumer,
  decide: (command, state) => {
    switch (command.type) {
      case "IssueConsumer":
        return issue(command, state);
      case "RotateKeys":
        return rotate(command, owned(command, state));
      case "RevokeKey":
        return revoke(command, owned(command, state));
      default: {
        const unknown: never = command;
        throw new Error(`unknown consumer command ${JSON.stringify(unknown)}`);
      }
    }
  },
};

function owned(command: { consumerId: number; ownerAccountId: string }, state: ConsumerState): Consumer {
  if (!state || state.ownerAccountId !== command.ownerAccountId) throw new ConsumerNotFound(command.consumerId);
  return state;
}

const keyIssued = (keyId: number, key: NewKey): ConsumerEvent => ({
  type: "ApiKeyIssued",
  data: { keyId, prefix: key.prefix, digest: key.digest },
});

function issue(command: IssueConsumer, state: ConsumerState): ConsumerEvent[] {
  if (state) throw new ConsumerIdTaken(command.consumerId);
  const { consumerId, ownerAccountId, name, rateLimitPerMinute, dailyQuota } = command;
  return [
    { type: "ConsumerIssued", data: { consumerId, ownerAccountId, name, rateLimitPerMinute, dailyQuota } },
    keyIssued(1, command.key),
  ];
}

function rotate(command: RotateKeys, consumer: Consumer): ConsumerEvent[] {
  return [
    ...consumer.keys
      .filter((k) => !k.revoked)
      .map((k): ConsumerEvent => ({ type: "ApiKeyRevoked", data: { keyId: k.keyId, cause: "rotated" } })),
    keyIssued(consumer.nextKeyId, command.key),
  ];
}

function revoke(command: RevokeKey, consumer: Consumer): ConsumerEvent[] {
  const key = consumer.keys.find((k) => k.keyId === command.keyId);
  if (!key) throw new ApiKeyNotFound(consumer.consumerId, command.keyId);
  return key.revoked ? [] : [{ type: "ApiKeyRevoked", data: { keyId: key.keyId, cause: "revoked" } }];
}
