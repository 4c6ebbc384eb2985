import type { ConsumerEvent } from "./consumer.js";
import { unreachable } from "./unreachable.js";

/** What a consumer stream says now, as far as its decisions need: who owns it and its keys. */
export type Consumer = {
  consumerId: number;
  ownerAccountId: string;
  /** Every key ever issued, in key id order. */
  keys: readonly { keyId: number; revoked: boolean }[];
  /** The id the next issued key gets: key ids count 1, 2, 3… within the consumer and are never reused. */
  nextKeyId: number;
};

/** null until the consumer is issued. */
export type ConsumerState = Consumer | null;

export const initialConsumerState = (): ConsumerState => null;

/** Folds one consumer event into the state; pure. */
export function evolveConsumer(state: ConsumerState, event: ConsumerEvent): ConsumerState {
  if (event.type === "ConsumerIssued") {
    const { consumerId, ownerAccountId } = event.data;
    return { consumerId, ownerAccountId, keys: [], nextKeyId: 1 };
  }
  if (!state) return state;
  switch (event.type) {
    case "ApiKeyIssued": {
      const { keyId } = event.data;
      return { ...state, keys: [...state.keys, { keyId, revoked: false }], nextKeyId: keyId + 1 };
    }
    case "ApiKeyRevoked": {
      const { keyId } = event.data;
      return { ...state, keys: state.keys.map((k) => (k.keyId === keyId ? { ...k, revoked: true } : k)) };
    }
    default:
      return unreachable(event);
  }
}
