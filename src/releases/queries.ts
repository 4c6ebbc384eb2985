import type { ReleaseScope } from "../../streams/release.js";
import type { JobStatus } from "../../streams/release-state.js";
import { isUuid } from "../../streams/shared.js";
import type { Sql } from "../db/database.js";

/** Reads of the `releases` read model (src/projections/releases.ts). */

export type Release = {
  version: string;
  jobId: string;
  position: string;
  schemaVersion: string;
  byteLength: number;
  sha256: string;
  chunksSha256: string;
  scope: ReleaseScope;
  requestedAt: Date;
  createdAt: Date;
};

export type ReleaseJobView = {
  jobId: string;
  version: string;
  status: JobStatus;
  position: string;
  schemaVersion: string;
  attempts: number;
  itemsDone: number;
  itemsTotal: number | null;
  requestedAt: Date;
  startedAt: Date | null;
  updatedAt: Date;
  finishedAt: Date | null;
  failure: string | null;
};

const releaseColumns = (sql: Sql) => sql`
  version, job_id::text as "jobId", position, schema_version as "schemaVersion", byte_length::float8 as "byteLength",
  sha256, chunks_sha256 as "chunksSha256", scope, requested_at as "requestedAt", created_at as "createdAt"`;

export async function findRelease(sql: Sql, version: string): Promise<Release | undefined> {
  const [row] = await sql<Release[]>`select ${releaseColumns(sql)} from dataset_release where version = ${version}`;
  return row;
}

/** The key of the newest-first order: creation time, then version. */
export type ReleaseKey = [createdAt: string, version: string];

/** Releases newest first, strictly after `after`. */
export function listReleases(sql: Sql, { after, take }: { after?: ReleaseKey | undefined; take: number }) {
  return sql<Release[]>`
    select ${releaseColumns(sql)} from dataset_release
    ${after ? sql`where (created_at, version) < (${after[0]}::timestamptz, ${after[1]})` : sql``}
    order by created_at desc, version desc
    limit ${take}`;
}

/** The job of that id; none for text that is no UUID, which names no job (rather than failing the uuid cast). */
export async function findJob(sql: Sql, jobId: string): Promise<ReleaseJobView | undefined> {
  if (!isUuid(jobId)) return undefined;
  const [row] = await sql<ReleaseJobView[]>`
    select job_id::text as "jobId", version, status, position, schema_version as "schemaVersion", attempts,
      items_done as "itemsDone", items_total as "itemsTotal", requested_at as "requestedAt",
      started_at as "startedAt", updated_at as "updatedAt", finished_at as "finishedAt", failure
    from release_job where job_id = ${jobId}`;
  return row;
}
