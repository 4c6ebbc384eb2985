import { BatchItemsJudged, BatchReceived, BatchValidated, BatchValidationStarted } from "../../streams/batch.js";
import type { Tx } from "../db/database.js";
import { defineProjector } from "./projector.js";
import { json, streamEntityId } from "./rows.js";

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
  create index batch_by_time on batch (received_at desc, batch_reference desc);
  -- the validator's work list, asked whenever the projectors make progress: only the few waiting
  create index batch_waiting on batch (received_at, batch_reference) where status in ('received', 'validating');
  create table batch_item (
    batch_reference uuid not null,
    ordinal integer not null,
    outcome text not null,
    -- the rule codes of its faults and requirements, for the report's filter
    codes text[] not null,
    -- the judged item as the report shows it; json, not jsonb: nothing queries inside it, and
    -- a report page sends 50 of them, which jsonb would print again from its binary form
    item json not null,
    primary key (batch_reference, ordinal)
  );
  create index batch_item_by_outcome on batch_item (batch_reference, outcome, ordinal);
  -- how many items (and package faults) broke each rule: the report's summary
  create table batch_rule (
    batch_reference uuid not null,
    code text not null,
    count integer not null,
    primary key (batch_reference, code)
  );
  create table batch_fault (
    batch_reference uuid not null,
    position integer not null,
    code text not null,
    fault jsonb not null,
    primary key (batch_reference, position)
  );`;

export const batches = defineProjector({
  name: "batches",
  version: 5,
  description:
    "Batches: sender, competition, status, validation progress and counts; the items as judged, and package faults.",
  tables: ["batch", "batch_item", "batch_rule", "batch_fault"],
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
    [BatchValidationStarted.type]: (tx, events) => {
      const rows = events.map((e) => ({
        batch_reference: streamEntityId(e.streamId),
        items_total: e.data.itemsTotal,
        at: e.metadata.occurredAt,
      }));
      return tx`
        update batch b set status = 'validating', items_total = r.items_total, updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, items_total integer, at timestamptz)
        where b.batch_reference = r.batch_reference and b.status = 'received'`;
    },
    [BatchItemsJudged.type]: async (tx, events) => {
      const rows = events.flatMap((e) =>
        e.data.items.map((item) => ({
          batch_reference: streamEntityId(e.streamId),
          ordinal: item.ordinal,
          outcome: item.outcome,
          codes: [...new Set([...item.faults.map((f) => f.code), ...item.requirements.map((r) => r.code)])],
          item,
        })),
      );
      await tx`
        with inserted as (
          insert into batch_item (batch_reference, ordinal, outcome, codes, item)
          select batch_reference, ordinal, outcome, codes, item
          from jsonb_to_recordset(${json(tx, rows)})
            as r(batch_reference uuid, ordinal integer, outcome text, codes text[], item json)
          on conflict do nothing
          returning batch_reference, codes)
        ${tallyRules(tx)}`;
      const touched = events.map((e) => ({ batch_reference: streamEntityId(e.streamId), at: e.metadata.occurredAt }));
      return recount(tx, touched);
    },
    [BatchValidated.type]: async (tx, events) => {
      const faults = events.flatMap((e) =>
        e.data.faults.map((fault, position) => ({
          batch_reference: streamEntityId(e.streamId),
          position,
          code: fault.code,
          fault,
        })),
      );
      await tx`
        with inserted as (
          insert into batch_fault (batch_reference, position, code, fault)
          select * from jsonb_to_recordset(${json(tx, faults)})
            as r(batch_reference uuid, position integer, code text, fault jsonb)
          on conflict do nothing
          returning batch_reference, array[code] as codes)
        ${tallyRules(tx)}`;
      const rows = events.map((e) => ({
        batch_reference: streamEntityId(e.streamId),
        status: e.data.status,
        at: e.metadata.occurredAt,
      }));
      await tx`
        update batch b set status = r.status, updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, status text, at timestamptz)
        where b.batch_reference = r.batch_reference`;
      return recount(tx, rows);
    },
  },
});

/**
 * Adds the codes of the rows just inserted (`inserted`) to each batch's rule counts: a
 * replayed event inserts none, so nothing is counted twice.
 */
const tallyRules = (tx: Tx) => tx`
  insert into batch_rule (batch_reference, code, count)
  select batch_reference, code, count(*)::int from inserted, unnest(codes) as code
  group by batch_reference, code
  on conflict (batch_reference, code) do update set count = batch_rule.count + excluded.count`;

/** A batch's progress and counts, from its judged items: replaying a step counts nothing twice. */
function recount(tx: Tx, touched: { batch_reference: string; at: string }[]) {
  return tx`
    update batch b set
      items_done = c.done, accepted = c.accepted, rejected = c.rejected, unresolved = c.unresolved,
      duplicate = c.duplicate, conflicting = c.conflicting, updated_at = greatest(b.updated_at, t.at)
    from jsonb_to_recordset(${json(tx, touched)}) as t(batch_reference uuid, at timestamptz)
    cross join lateral (
      select count(*)::int as done,
        count(*) filter (where outcome = 'accepted')::int as accepted,
        count(*) filter (where outcome = 'rejected')::int as rejected,
        count(*) filter (where outcome = 'unresolved')::int as unresolved,
        count(*) filter (where outcome = 'duplicate')::int as duplicate,
        count(*) filter (where outcome = 'conflicting')::int as conflicting
      from batch_item i where i.batch_reference = t.batch_reference
    ) c
    where b.batch_reference = t.batch_reference`;
}
