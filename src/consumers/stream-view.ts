import { ApiKeyIssued, ApiKeyRevoked, ConsumerIssued } from "../../streams/consumer.js";
import type { EventData } from "../../streams/types.js";
import type { RecordedEvent } from "../event-store/port.js";
import type { ConsumerView } from "./queries.js";

/**
 * The consumer as its own stream says, in the shape the read model gives it: for the answer
 * to an issue or rotation, which shows the raw key once and so must not depend on the read
 * model having caught up. Undefined before the consumer is issued.
 */
export function consumerFromStream(events: readonly RecordedEvent[]): ConsumerView | undefined {
  let view: ConsumerView | undefined;
  for (const event of events) {
    const at = new Date(event.metadata.occurredAt);
    if (event.type === ConsumerIssued.type) {
      const { consumerId, ownerAccountId, name, rateLimitPerMinute, dailyQuota } = event.data as EventData<
        typeof ConsumerIssued
      >;
      view = { consumerId, ownerAccountId, name, rateLimitPerMinute, dailyQuota, createdAt: at, revision: 0, keys: [] };
    } else if (view && event.type === ApiKeyIssued.type) {
      const { keyId, prefix } = event.data as EventData<typeof ApiKeyIssued>;
      view.keys.push({ keyId, prefix, createdAt: at, revokedAt: null });
    } else if (view && event.type === ApiKeyRevoked.type) {
      const { keyId } = event.data as EventData<typeof ApiKeyRevoked>;
      view.keys = view.keys.map((key) =>
        key.keyId === keyId && key.revokedAt === null ? { ...key, revokedAt: at } : key,
      );
    }
    if (view) view.revision = event.revision;
  }
  return view;
}
