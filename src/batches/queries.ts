import type { CONTRACT_VERSIONS } from "../../streams/batch.js";
import { isUuid } from "../../streams/shared.js";
import type { Sql } from "../db/database.js";
import type { Fault } from "../ingest/batches/package.js";
import type { JudgedItem, Outcome } from "./judge.js";
import type { Candidate } from "./references.js";

/**
 * Reads for batch intake and the batch routes: the competitions a package may name, and the
 * `batch` read model (src/projections/batches.ts).
 */

/** Every competition, with the names and source ids a reference may match: they are few. */
export async function competitionCandidates(sql: Sql): Promise<Candidate[]> {
  const rows = await sql<{ competition_id: string; name: string; alternative_names: string[]; source_ids: string[] }[]>`
    select competition_id, name, alternative_names, source_ids from competition`;
  return rows.map((r) => ({ id: r.competition_id, name: r.name, names: r.alternative_names, sourceIds: r.source_ids }));
}

/** Where a batch is in its lifecycle (docs/batches.md, "States"). */
export const BATCH_STATUSES = [
  "received",
  "validating",
  "staged",
  "validated",
  "rejected",
  "published",
  "partially_published",
] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export type BatchView = {
  batchReference: string;
  ownerAccountId: string;
  competitionId: string;
  packageId: string;
  contractVersion: (typeof CONTRACT_VERSIONS)[number];
  checksum: string;
  status: BatchStatus;
  fileCount: number;
  byteCount: number;
  receivedAt: Date;
  updatedAt: Date;
  /** The revision of the batch's stream this view reflects: every change to it or its items raises it. */
  revision: number;
  progress: { itemsDone: number; itemsTotal: number | null };
  counts: { accepted: number; rejected: number; unresolved: number; duplicate: number; conflicting: number };
  /** Accepted items by the decision standing on them. */
  review: { approved: number; rejected: number; undecided: number };
  /** What publication did: items it put in the ledger, approved ones it refused; null until published. */
  publication: { published: number; refused: number; publishedAt: Date } | null;
};

type BatchRow = {
  batch_reference: string;
  owner_account_id: string;
  competition_id: string;
  package_id: string;
  contract_version: (typeof CONTRACT_VERSIONS)[number];
  checksum: string;
  status: BatchStatus;
  file_count: number;
  byte_count: number;
  received_at: Date;
  updated_at: Date;
  revision: number;
  items_done: number;
  items_total: number | null;
  accepted: number;
  rejected: number;
  unresolved: number;
  duplicate: number;
  conflicting: number;
  approved: number;
  disapproved: number;
  published: number | null;
  refused: number | null;
  published_at: Date | null;
};

const view = (r: BatchRow): BatchView => ({
  batchReference: r.batch_reference,
  ownerAccountId: r.owner_account_id,
  competitionId: r.competition_id,
  packageId: r.package_id,
  contractVersion: r.contract_version,
  checksum: r.checksum,
  status: r.status,
  fileCount: r.file_count,
  byteCount: r.byte_count,
  receivedAt: r.received_at,
  updatedAt: r.updated_at,
  revision: r.revision,
  progress: { itemsDone: r.items_done, itemsTotal: r.items_total },
  counts: {
    accepted: r.accepted,
    rejected: r.rejected,
    unresolved: r.unresolved,
    duplicate: r.duplicate,
    conflicting: r.conflicting,
  },
  review: { approved: r.approved, rejected: r.disapproved, undecided: r.accepted - r.approved - r.disapproved },
  publication:
    r.published_at === null
      ? null
      : { published: r.published ?? 0, refused: r.refused ?? 0, publishedAt: r.published_at },
});

/** A batch by its reference; a reference that is not a UUID names none. */
export async function findBatch(sql: Sql, batchReference: string): Promise<BatchView | undefined> {
  if (!isUuid(batchReference)) return undefined;
  const rows = await sql<BatchRow[]>`select * from batch where batch_reference = ${batchReference}::uuid`;
  return rows.map(view)[0];
}

/** Where a page of batches continues: the last one's receipt time (ISO) and reference. */
export type BatchKey = [string, string];
export const batchKey = (batch: BatchView): BatchKey => [batch.receivedAt.toISOString(), batch.batchReference];

/** Batches newest first, strictly after `after`: one sender's (`ownerAccountId`), or all. */
export async function listBatches(
  sql: Sql,
  filters: { ownerAccountId?: string | undefined; status?: BatchStatus | undefined },
  { after, take }: { after?: BatchKey | undefined; take: number },
): Promise<BatchView[]> {
  const { ownerAccountId, status } = filters;
  const rows = await sql<BatchRow[]>`
    select * from batch
    where true
      ${ownerAccountId === undefined ? sql`` : sql`and owner_account_id = ${ownerAccountId}`}
      ${status === undefined ? sql`` : sql`and status = ${status}`}
      ${after ? sql`and (received_at, batch_reference) < (${after[0]}::timestamptz, ${after[1]}::uuid)` : sql``}
    order by received_at desc, batch_reference desc
    limit ${take}`;
  return rows.map(view);
}

/** Which items a report shows: by outcome, by a rule code among their faults and requirements. */
export type ReportFilters = { outcome?: Outcome | undefined; code?: string | undefined };

/** An item as the report shows it: as judged, with the decision standing on it and what publication did with it. */
export type ReportItem = JudgedItem & {
  review: { decision: "approved" | "rejected"; reason: string; reviewedBy: string; reviewedAt: string } | null;
  publication:
    | { status: "published"; fixtureId: string; eventId: string; revision: number }
    | { status: "refused"; code: string; message: string }
    | null;
};

/** The judged items of a batch in reading order, strictly after ordinal `after`, each with its review and publication. */
export async function reportItems(
  sql: Sql,
  batchReference: string,
  { outcome, code }: ReportFilters,
  { after, take }: { after?: number | undefined; take: number },
): Promise<ReportItem[]> {
  const rows = await sql<{ item: ReportItem }[]>`
    select item || jsonb_build_object('review', review, 'publication', publication) as item from batch_item
    where batch_reference = ${batchReference}::uuid
      ${outcome === undefined ? sql`` : sql`and outcome = ${outcome}`}
      ${code === undefined ? sql`` : sql`and ${code} = any(codes)`}
      ${after === undefined ? sql`` : sql`and ordinal > ${after}`}
    order by ordinal
    limit ${take}`;
  return rows.map((r) => r.item);
}

/** What a report shows beside its items: each rule broken with how many items (or package faults) broke it, most first, and the faults outside any delivery in the order validation found them. */
export type ReportSummary = { rules: { code: string; count: number }[]; faults: Fault[] };

/** A batch with its report's summary, in one read: a report page asks for both on every request. */
export async function findBatchReport(
  sql: Sql,
  batchReference: string,
): Promise<(BatchView & ReportSummary) | undefined> {
  if (!isUuid(batchReference)) return undefined;
  const rows = await sql<(BatchRow & ReportSummary)[]>`
    select b.*,
      coalesce((select json_agg(json_build_object('code', r.code, 'count', r.count) order by r.count desc, r.code)
                from batch_rule r where r.batch_reference = b.batch_reference), '[]') as rules,
      coalesce((select json_agg(f.fault order by f.position)
                from batch_fault f where f.batch_reference = b.batch_reference), '[]') as faults
    from batch b where b.batch_reference = ${batchReference}::uuid`;
  return rows.map((r) => ({ ...view(r), rules: r.rules, faults: r.faults }))[0];
}
