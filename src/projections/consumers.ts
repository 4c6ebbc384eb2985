import { ApiKeyIssued, ApiKeyRevoked, ConsumerIssued } from "../../streams/consumer.js";
import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";
import { defineProjector } from "./projector.js";
import { json, lastByKey, streamEntityId } from "./rows.js";

/**
 * API consumers and their keys as their streams say now. Read by the admin consumer routes
 * and, on every keyed request, by the key lookup (src/consumers/queries.ts). A key row holds
 * its lookup prefix and keyed digest, never the raw key.
 *
 * Replay-safe: each effect is keyed by what the event names (consumer id; consumer and key
 * id) and revoking keeps the first revocation, so applying the same events again changes
 * nothing; `revision` only ever rises.
 */
const ddl = `
  create table api_consumer (
    consumer_id integer primary key,
    owner_account_id text not null,
    name text not null,
    rate_limit_per_minute integer not null,
    daily_quota integer not null,
    created_at timestamptz not null,
    -- the stream revision applied last
    revision integer not null
  );
  create index api_consumer_by_owner on api_consumer (owner_account_id, consumer_id);
  create table api_key (
    consumer_id integer not null,
    key_id integer not null,
    -- ck_ and 10 random base62 characters; listed, and the lookup of a presented key
    prefix text not null,
    -- HMAC-SHA-256 of the raw key under the server secret, hex
    digest text not null,
    created_at timestamptz not null,
    revoked_at timestamptz,
    primary key (consumer_id, key_id)
  );
  -- Only active keys are ever looked up by prefix. Not unique: the digest tells keys apart,
  -- so an improbable clash of random prefixes can never stop this projector.
  create index api_key_active_by_prefix on api_key (prefix) where revoked_at is null;`;

const at = (e: RecordedEvent) => e.metadata.occurredAt;
const consumerIdOf = (e: RecordedEvent) => Number(streamEntityId(e.streamId));

export const consumers = defineProjector({
  name: "consumers",
  version: 1,
  description: "API consumers, their limits and owner, and their keys' prefixes, digests and lifecycle.",
  tables: ["api_consumer", "api_key"],
  ddl,
  on: {
    [ConsumerIssued.type]: (tx, events) => {
      const rows = events.map((e) => {
        const d = e.data;
        return {
          consumer_id: d.consumerId,
          owner_account_id: d.ownerAccountId,
          name: d.name,
          rate_limit_per_minute: d.rateLimitPerMinute,
          daily_quota: d.dailyQuota,
          created_at: at(e),
          revision: e.revision,
        };
      });
      return tx`
        insert into api_consumer (
          consumer_id, owner_account_id, name, rate_limit_per_minute, daily_quota, created_at, revision)
        select * from jsonb_to_recordset(${json(tx, rows)}) as r(
          consumer_id integer, owner_account_id text, name text, rate_limit_per_minute integer,
          daily_quota integer, created_at timestamptz, revision integer)
        on conflict (consumer_id) do nothing`;
    },
    [ApiKeyIssued.type]: (tx, events) => {
      const rows = events.map((e) => {
        const d = e.data;
        return { consumer_id: consumerIdOf(e), key_id: d.keyId, prefix: d.prefix, digest: d.digest, created_at: at(e) };
      });
      return tx`
        insert into api_key (consumer_id, key_id, prefix, digest, created_at)
        select * from jsonb_to_recordset(${json(tx, rows)})
          as r(consumer_id integer, key_id integer, prefix text, digest text, created_at timestamptz)
        on conflict (consumer_id, key_id) do nothing`;
    },
    [ApiKeyRevoked.type]: (tx, events) => {
      const rows = events.map((e) => ({
        consumer_id: consumerIdOf(e),
        key_id: e.data.keyId,
        revoked_at: at(e),
      }));
      return tx`
        update api_key k set revoked_at = r.revoked_at
        from jsonb_to_recordset(${json(tx, rows)}) as r(consumer_id integer, key_id integer, revoked_at timestamptz)
        where k.consumer_id = r.consumer_id and k.key_id = r.key_id and k.revoked_at is null`;
    },
  },
  settle: (tx, events) => advanceRevisions(tx, events),
});

/** Each consumer's revision becomes the highest of its events in the batch, never lower than it was. */
function advanceRevisions(tx: Tx, events: readonly RecordedEvent[]) {
  const rows = lastByKey(
    events.map((e) => ({ consumer_id: consumerIdOf(e), revision: e.revision })),
    (r) => String(r.consumer_id),
  );
  return tx`
    update api_consumer c set revision = r.revision
    from jsonb_to_recordset(${json(tx, rows)}) as r(consumer_id integer, revision integer)
    where c.consumer_id = r.consumer_id and c.revision < r.revision`;
}
