import {
  BatchFixtureCreated,
  BatchItemsJudged,
  BatchItemsResubmitted,
  BatchItemsReviewed,
  BatchPublished,
  BatchReceived,
  BatchReferencesMapped,
  BatchValidated,
  BatchValidationStarted,
} from "../../streams/batch.js";
import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";
import { defineProjector } from "./projector.js";
import { json, lastByKey, streamEntityId } from "./rows.js";

/**
 * Batches as their streams say now: who sent what, for which competition, where each is in
 * its lifecycle (docs/batches.md, "States"), how far its validation has come, and each
 * item's review and publication. Read by
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
    -- the revision of the batch's stream the row and its items reflect: the version cached reports are keyed by
    revision integer not null default 0,
    -- items validation has judged, of how many (null until it has counted them)
    items_done integer not null default 0,
    items_total integer,
    accepted integer not null default 0,
    rejected integer not null default 0,
    unresolved integer not null default 0,
    duplicate integer not null default 0,
    conflicting integer not null default 0,
    -- accepted items by the decision standing on them
    approved integer not null default 0,
    disapproved integer not null default 0,
    -- items publication put in the ledger, and approved ones it refused; null until published
    published integer,
    refused integer,
    published_at timestamptz
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
    -- the judged item as validation stored it
    item jsonb not null,
    -- the decision standing on it, and what publication did with it (null: none yet)
    review jsonb,
    publication jsonb,
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
  version: 7,
  description:
    "Batches: sender, competition, status, validation progress and counts, review and publication; the items as judged, reviewed and published, and package faults.",
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
        where b.batch_reference = r.batch_reference and b.status in ('received', 'validating')`;
    },
    [BatchItemsJudged.type]: async (tx, events) => {
      // A later round's judgement of an item replaces the earlier one; its review stays.
      const rows = lastByKey(
        events.flatMap((e) =>
          e.data.items.map((item) => ({
            batch_reference: streamEntityId(e.streamId),
            ordinal: item.ordinal,
            outcome: item.outcome,
            codes: [...new Set([...item.faults.map((f) => f.code), ...item.requirements.map((r) => r.code)])],
            item,
          })),
        ),
        (r) => `${r.batch_reference}:${r.ordinal}`,
      );
      await tx`
        insert into batch_item (batch_reference, ordinal, outcome, codes, item)
        select batch_reference, ordinal, outcome, codes, item
        from jsonb_to_recordset(${json(tx, rows)})
          as r(batch_reference uuid, ordinal integer, outcome text, codes text[], item jsonb)
        on conflict (batch_reference, ordinal) do update
          set outcome = excluded.outcome, codes = excluded.codes, item = excluded.item`;
      // Progress is the round's: the items judged so far in it.
      const done = lastByKey(
        events.map((e) => ({
          batch_reference: streamEntityId(e.streamId),
          done: e.data.from + e.data.items.length,
          at: e.metadata.occurredAt,
        })),
        (r) => r.batch_reference,
      );
      await tx`
        update batch b set items_done = r.done
        from jsonb_to_recordset(${json(tx, done)}) as r(batch_reference uuid, done integer)
        where b.batch_reference = r.batch_reference`;
      await recountRules(tx, done);
      return recount(tx, done);
    },
    [BatchValidated.type]: async (tx, events) => {
      const rows = lastByKey(
        events.map((e) => ({
          batch_reference: streamEntityId(e.streamId),
          status: e.data.status,
          at: e.metadata.occurredAt,
          faults: e.data.faults.map((fault, position) => ({ position, code: fault.code, fault })),
        })),
        (r) => r.batch_reference,
      );
      // A round's package faults replace the round's before.
      await tx`
        delete from batch_fault f using jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid)
        where f.batch_reference = r.batch_reference`;
      await tx`
        insert into batch_fault (batch_reference, position, code, fault)
        select r.batch_reference, f.position, f.code, f.fault
        from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, faults jsonb),
          jsonb_to_recordset(r.faults) as f(position integer, code text, fault jsonb)`;
      await tx`
        update batch b set status = r.status, updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, status text, at timestamptz)
        where b.batch_reference = r.batch_reference`;
      await recountRules(tx, rows);
      await recountReviews(tx, events);
      return recount(tx, rows);
    },
    [BatchReferencesMapped.type]: (tx, events) => nextRound(tx, events),
    [BatchFixtureCreated.type]: (tx, events) => nextRound(tx, events),
    [BatchItemsResubmitted.type]: async (tx, events) => {
      // A replaced item's review no longer stands; until it is judged again the report shows it as it was.
      const replaced = events.flatMap((e) =>
        e.data.items.map(({ ordinal }) => ({ batch_reference: streamEntityId(e.streamId), ordinal })),
      );
      await tx`
        update batch_item i set review = null
        from jsonb_to_recordset(${json(tx, replaced)}) as r(batch_reference uuid, ordinal integer)
        where i.batch_reference = r.batch_reference and i.ordinal = r.ordinal`;
      await recountReviews(tx, events);
      return nextRound(tx, events);
    },
    [BatchItemsReviewed.type]: async (tx, events) => {
      // A later decision on an item replaces the earlier one: the run's last stands, replayed or not.
      const decisions = lastByKey(
        events.flatMap((e) => {
          const { ordinals, decision, reason, reviewerAccountId, reviewedAt } = e.data;
          const review = { decision, reason, reviewedBy: reviewerAccountId, reviewedAt };
          return ordinals.map((ordinal) => ({ batch_reference: streamEntityId(e.streamId), ordinal, review }));
        }),
        (r) => `${r.batch_reference}:${r.ordinal}`,
      );
      await tx`
        update batch_item i set review = r.review
        from jsonb_to_recordset(${json(tx, decisions)}) as r(batch_reference uuid, ordinal integer, review jsonb)
        where i.batch_reference = r.batch_reference and i.ordinal = r.ordinal`;
      return recountReviews(tx, events);
    },
    [BatchPublished.type]: async (tx, events) => {
      const items = events.flatMap((e) => [
        ...e.data.published.map(({ ordinal, ...published }) => ({
          batch_reference: streamEntityId(e.streamId),
          ordinal,
          publication: { status: "published", ...published },
        })),
        ...e.data.refused.map(({ ordinal, ...refused }) => ({
          batch_reference: streamEntityId(e.streamId),
          ordinal,
          publication: { status: "refused", ...refused },
        })),
      ]);
      await tx`
        update batch_item i set publication = r.publication
        from jsonb_to_recordset(${json(tx, items)}) as r(batch_reference uuid, ordinal integer, publication jsonb)
        where i.batch_reference = r.batch_reference and i.ordinal = r.ordinal`;
      const rows = events.map((e) => ({
        batch_reference: streamEntityId(e.streamId),
        status: e.data.status,
        published: e.data.published.length,
        refused: e.data.refused.length,
        at: e.metadata.occurredAt,
      }));
      return tx`
        update batch b set status = r.status, published = r.published, refused = r.refused, published_at = r.at,
          updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)})
          as r(batch_reference uuid, status text, published integer, refused integer, at timestamptz)
        where b.batch_reference = r.batch_reference`;
    },
  },
  settle: (tx, events) => advanceRevisions(tx, events),
});

/** Each batch's revision becomes the highest of its events in the run, never lower than it was. */
function advanceRevisions(tx: Tx, events: readonly RecordedEvent[]) {
  const rows = lastByKey(
    events.map((e) => ({ batch_reference: streamEntityId(e.streamId), revision: e.revision })),
    (r) => r.batch_reference,
  );
  return tx`
    update batch b set revision = r.revision
    from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, revision integer)
    where b.batch_reference = r.batch_reference and b.revision < r.revision`;
}

/** A new round of validation begins: the batch is validating again, none of the round's items judged yet. */
function nextRound(tx: Tx, events: readonly RecordedEvent[]) {
  const rows = events.map((e) => ({ batch_reference: streamEntityId(e.streamId), at: e.metadata.occurredAt }));
  return tx`
    update batch b set status = 'validating', items_done = 0, updated_at = r.at
    from jsonb_to_recordset(${json(tx, rows)}) as r(batch_reference uuid, at timestamptz)
    where b.batch_reference = r.batch_reference`;
}

/**
 * Accepted items by the decision standing on them, in the batches touched: a decision on an
 * item a later round judged otherwise (a replacement made it a duplicate) no longer counts.
 */
function recountReviews(tx: Tx, events: readonly RecordedEvent[]) {
  const touched = events.map((e) => ({ batch_reference: streamEntityId(e.streamId), at: e.metadata.occurredAt }));
  return tx`
    update batch b set approved = c.approved, disapproved = c.disapproved, updated_at = greatest(b.updated_at, t.at)
    from jsonb_to_recordset(${json(tx, touched)}) as t(batch_reference uuid, at timestamptz)
    cross join lateral (
      select count(*) filter (where outcome = 'accepted' and review->>'decision' = 'approved')::int as approved,
        count(*) filter (where outcome = 'accepted' and review->>'decision' = 'rejected')::int as disapproved
      from batch_item i where i.batch_reference = t.batch_reference
    ) c
    where b.batch_reference = t.batch_reference`;
}

/** Each rule broken in the batches touched, with how many items (or package faults) broke it: counted again whole, as a round replaces items. */
async function recountRules(tx: Tx, touched: { batch_reference: string }[]) {
  const batches = [...new Set(touched.map((t) => t.batch_reference))];
  await tx`delete from batch_rule where batch_reference = any(${batches}::uuid[])`;
  return tx`
    insert into batch_rule (batch_reference, code, count)
    select batch_reference, code, count(*)::int from (
      select batch_reference, unnest(codes) as code from batch_item where batch_reference = any(${batches}::uuid[])
      union all
      select batch_reference, code from batch_fault where batch_reference = any(${batches}::uuid[])
    ) broken
    group by batch_reference, code`;
}

/** A batch's counts, from its items as judged last: replaying a step counts nothing twice. */
function recount(tx: Tx, touched: { batch_reference: string; at: string }[]) {
  return tx`
    update batch b set
      accepted = c.accepted, rejected = c.rejected, unresolved = c.unresolved,
      duplicate = c.duplicate, conflicting = c.conflicting, updated_at = greatest(b.updated_at, t.at)
    from jsonb_to_recordset(${json(tx, touched)}) as t(batch_reference uuid, at timestamptz)
    cross join lateral (
      select count(*) filter (where outcome = 'accepted')::int as accepted,
        count(*) filter (where outcome = 'rejected')::int as rejected,
        count(*) filter (where outcome = 'unresolved')::int as unresolved,
        count(*) filter (where outcome = 'duplicate')::int as duplicate,
        count(*) filter (where outcome = 'conflicting')::int as conflicting
      from batch_item i where i.batch_reference = t.batch_reference
    ) c
    where b.batch_reference = t.batch_reference`;
}
