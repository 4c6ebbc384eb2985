import { BatchReceived } from "../../streams/batch.js";
import { defineProjector } from "./projector.js";
import { json } from "./rows.js";

/**
 * Batches as their streams say now: who sent what, for which competition, where each is in
 * its lifecycle (docs/batches.md, "States") and how far its validation has come. Read by
 * the batch routes (src/batches/queries.ts); the package's bytes stay in the log.
 *
 * Replay-safe: a batch's row is keyed by its reference and a replayed receipt changes nothing.
 */
const ddl = `
  create table batch (
    batch_reference uuid primary key,
    owner_account_id text not null,
    competition_id text not null,
    idempotency_key text not null,
    checksum text not null,
    contract_version text not null,
    package_id text not null,
    status text not null,
    file_count integer not null,
    byte_count integer not null,
    received_at timestamptz not null,
    updated_at timestamptz not null,
    -- items validation has judged, of how many (null until it has counted them)
    items_done integer not null default 0,
    items_total integer,
    accepted integer not null default 0,
    rejected integer not null default 0,
    unresolved integer not null default 0,
    duplicate integer not null default 0,
    conflicting integer not null default 0
  );
  create index batch_by_owner on batch (owner_account_id, received_at desc, batch_reference desc);
  create index batch_by_time on batch (received_at desc, batch_reference desc);`;

export const batches = defineProjector({
  name: "batches",
  version: 1,
  description: "Batches: sender, competition, status, validation progress and item counts.",
  tables: ["batch"],
  ddl,
  on: {
    [BatchReceived.type]: (tx, events) => {
      const rows = events.map(({ data: d, metadata }) => ({
        batch_reference: d.batchReference,
        owner_account_id: d.ownerAccountId,
        competition_id: d.competitionId,
        idempotency_key: d.idempotencyKey,
        checksum: d.checksum,
        contract_version: d.contractVersion,
        package_id: d.packageId,
        file_count: d.files.length,
        byte_count: d.files.reduce((sum, f) => sum + f.size, 0),
        received_at: metadata.occurredAt,
      }));
      return tx`
        insert into batch (
          batch_reference, owner_account_id, competition_id, idempotency_key, checksum, contract_version,
          package_id, status, file_count, byte_count, received_at, updated_at)
        select batch_reference, owner_account_id, competition_id, idempotency_key, checksum, contract_version,
          package_id, 'received', file_count, byte_count, received_at, received_at
        from jsonb_to_recordset(${json(tx, rows)}) as r(
          batch_reference uuid, owner_account_id text, competition_id text, idempotency_key text, checksum text,
          contract_version text, package_id text, file_count integer, byte_count integer, received_at timestamptz)
        on conflict (batch_reference) do nothing`;
    },
  },
});
