import {
  DatasetReleaseFailed,
  DatasetReleaseGenerationStarted,
  DatasetReleaseProgressed,
  DatasetReleasePublished,
  DatasetReleaseRequested,
} from "../../streams/release.js";
import { defineProjector } from "./projector.js";
import { json, lastByKey } from "./rows.js";

/**
 * Dataset releases and their generation jobs as their streams say now (docs/releases.md).
 * Read by the release routes (src/releases/queries.ts) and, for its work list, by the
 * release generator. The artefacts' bytes are not here: they are kept apart, where a
 * rebuild of this read model cannot touch them (src/releases/artifact-store.ts).
 *
 * Replay-safe: rows are keyed by job id and version, a request is inserted once, and each
 * later step is a row update that applying again leaves as it was. A run of one type may
 * hold several events of a job (catch-up, a rebuild): only its last is applied, since an
 * update joined to several rows of one job would apply an arbitrary one.
 */
const ddl = `
  create table release_job (
    job_id uuid primary key,
    version text not null,
    status text not null,
    position text not null,
    schema_version text not null,
    requested_by text not null,
    requested_at timestamptz not null,
    -- generations begun, restarts included, and the latest one's progress in streams read
    attempts integer not null default 0,
    items_done integer not null default 0,
    items_total integer,
    started_at timestamptz,
    updated_at timestamptz not null,
    finished_at timestamptz,
    failure text
  );
  -- the generator's work list: only the few waiting
  create index release_job_waiting on release_job (requested_at, version) where status in ('queued', 'generating');
  create table dataset_release (
    version text primary key,
    job_id uuid not null,
    position text not null,
    schema_version text not null,
    byte_length bigint not null,
    sha256 text not null,
    chunks_sha256 text not null,
    scope jsonb not null,
    requested_at timestamptz not null,
    created_at timestamptz not null
  );
  create index dataset_release_newest on dataset_release (created_at desc, version desc);`;

/** Each job's last event of a run, its data with the time it happened. */
const lastPerJob = <D extends { jobId: string }>(events: readonly { data: D; metadata: { occurredAt: string } }[]) =>
  lastByKey(
    events.map(({ data, metadata }) => ({ ...data, at: metadata.occurredAt })),
    (row) => row.jobId,
  );

export const releases = defineProjector({
  name: "releases",
  version: 1,
  description: "Dataset releases (version, scope, checksum, position) and their generation jobs' states and progress.",
  tables: ["release_job", "dataset_release"],
  ddl,
  on: {
    [DatasetReleaseRequested.type]: (tx, events) => {
      const rows = events.map(({ data, metadata }) => ({
        job_id: data.jobId,
        version: data.version,
        position: data.position,
        schema_version: data.schemaVersion,
        requested_by: metadata.actor,
        at: metadata.occurredAt,
      }));
      return tx`
        insert into release_job (job_id, version, status, position, schema_version, requested_by, requested_at, updated_at)
        select job_id, version, 'queued', position, schema_version, requested_by, at, at
        from jsonb_to_recordset(${json(tx, rows)}) as r(
          job_id uuid, version text, position text, schema_version text, requested_by text, at timestamptz)
        on conflict (job_id) do nothing`;
    },
    [DatasetReleaseGenerationStarted.type]: (tx, events) => {
      // The job's first start is when it started, though the run's last says where it is.
      const firstAt = new Map<string, string>();
      for (const { data, metadata } of events)
        if (!firstAt.has(data.jobId)) firstAt.set(data.jobId, metadata.occurredAt);
      const rows = lastPerJob(events).map((row) => ({ ...row, firstAt: firstAt.get(row.jobId) }));
      return tx`
        update release_job j set status = 'generating', attempts = r."attempt", items_total = r."itemsTotal",
          items_done = 0, started_at = coalesce(j.started_at, r."firstAt"), updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(
          "jobId" uuid, "attempt" integer, "itemsTotal" integer, "firstAt" timestamptz, at timestamptz)
        where j.job_id = r."jobId" and j.status in ('queued', 'generating') and j.attempts <= r."attempt"`;
    },
    [DatasetReleaseProgressed.type]: (tx, events) => {
      const rows = lastPerJob(events);
      return tx`
        update release_job j set items_done = greatest(j.items_done, r."itemsDone"), updated_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r("jobId" uuid, "attempt" integer, "itemsDone" integer, at timestamptz)
        where j.job_id = r."jobId" and j.status = 'generating' and j.attempts = r."attempt"`;
    },
    [DatasetReleasePublished.type]: async (tx, events) => {
      const rows = events.map(({ data, metadata }) => ({
        job_id: data.jobId,
        version: data.version,
        position: data.position,
        schema_version: data.schemaVersion,
        byte_length: data.byteLength,
        sha256: data.sha256,
        chunks_sha256: data.chunksSha256,
        scope: data.scope,
        at: metadata.occurredAt,
      }));
      await tx`
        update release_job j set status = 'published', items_done = coalesce(j.items_total, j.items_done),
          updated_at = r.at, finished_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(job_id uuid, at timestamptz)
        where j.job_id = r.job_id`;
      return tx`
        insert into dataset_release (
          version, job_id, position, schema_version, byte_length, sha256, chunks_sha256, scope, requested_at, created_at)
        select r.version, r.job_id, r.position, r.schema_version, r.byte_length, r.sha256, r.chunks_sha256, r.scope,
          j.requested_at, r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r(
          job_id uuid, version text, position text, schema_version text, byte_length bigint, sha256 text,
          chunks_sha256 text, scope jsonb, at timestamptz)
        join release_job j on j.job_id = r.job_id
        on conflict (version) do nothing`;
    },
    [DatasetReleaseFailed.type]: (tx, events) => {
      const rows = lastPerJob(events);
      return tx`
        update release_job j set status = 'failed', failure = r.reason, updated_at = r.at, finished_at = r.at
        from jsonb_to_recordset(${json(tx, rows)}) as r("jobId" uuid, reason text, at timestamptz)
        where j.job_id = r."jobId"`;
    },
  },
});
