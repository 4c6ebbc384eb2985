import { createHash } from "node:crypto";
import type { Sql } from "../db/database.js";

/**
 * Where artefacts are kept: in the database, in chunks of a fixed size, each with its own
 * SHA-256, under the generating job (migration 006). Chunks are checked when they are
 * written again by a restarted generation (it must write the same bytes) and whenever they
 * are served; a whole artefact read in one go is checked against its checksum too.
 */

/** 1 MiB: one chunk is one query's worth, and what a download holds in memory at a time. */
export const CHUNK_SIZE = 1 << 20;

export type StoredArtifact = {
  version: string;
  jobId: string;
  sha256: string;
  byteLength: number;
  chunkSize: number;
  chunkCount: number;
};

/** The artefact's bytes failed their check: what is stored is not what was published. */
export class ArtifactCorrupt extends Error {
  override readonly name = "ArtifactCorrupt";
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Stores an artefact's text as it is written, a chunk at a time, and digests the whole. */
export class ArtifactWriter {
  private readonly hash = createHash("sha256");
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private byteLength = 0;
  private chunkCount = 0;

  constructor(
    private readonly sql: Sql,
    private readonly jobId: string,
    private readonly chunkSize = CHUNK_SIZE,
  ) {}

  async write(text: string): Promise<void> {
    const bytes = Buffer.from(text, "utf8");
    this.hash.update(bytes);
    this.byteLength += bytes.length;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes < this.chunkSize) return;
    let all = Buffer.concat(this.pending);
    while (all.length >= this.chunkSize) {
      await this.store(all.subarray(0, this.chunkSize));
      all = all.subarray(this.chunkSize);
    }
    this.pending = all.length > 0 ? [all] : [];
    this.pendingBytes = all.length;
  }

  /** Stores what is left; the artefact's length, checksum and chunking. */
  async finish(): Promise<Omit<StoredArtifact, "version">> {
    if (this.pendingBytes > 0) await this.store(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
    return {
      jobId: this.jobId,
      sha256: this.hash.digest("hex"),
      byteLength: this.byteLength,
      chunkSize: this.chunkSize,
      chunkCount: this.chunkCount,
    };
  }

  private async store(bytes: Buffer): Promise<void> {
    const digest = sha256(bytes);
    const ordinal = this.chunkCount++;
    const inserted = await this.sql`
      insert into release_artifact_chunks (job_id, ordinal, sha256, bytes)
      values (${this.jobId}, ${ordinal}, ${digest}, ${bytes})
      on conflict (job_id, ordinal) do nothing returning ordinal`;
    if (inserted.length > 0) return;
    // An earlier attempt of this job stored this chunk: it must have stored these bytes.
    const [stored] = await this.sql<{ sha256: string }[]>`
      select sha256 from release_artifact_chunks where job_id = ${this.jobId} and ordinal = ${ordinal}`;
    if (stored?.sha256 !== digest)
      throw new Error(`chunk ${ordinal} of job ${this.jobId} differs from the one an earlier attempt stored`);
  }
}

/**
 * Makes the stored chunks the version's artefact, once: a second generator sealing the same
 * bytes changes nothing; anything else already sealed under the version is an error.
 */
export async function sealArtifact(sql: Sql, artifact: StoredArtifact): Promise<void> {
  const { version, jobId, sha256: digest, byteLength, chunkSize, chunkCount } = artifact;
  await sql`
    insert into release_artifacts (version, job_id, sha256, byte_length, chunk_size, chunk_count)
    values (${version}, ${jobId}, ${digest}, ${byteLength}, ${chunkSize}, ${chunkCount})
    on conflict (version) do nothing`;
  const sealed = await findArtifact(sql, version);
  if (sealed?.jobId !== jobId || sealed.sha256 !== digest)
    throw new Error(`release ${version} is sealed already with other bytes (job ${sealed?.jobId})`);
}

export async function findArtifact(sql: Sql, version: string): Promise<StoredArtifact | undefined> {
  const [row] = await sql<StoredArtifact[]>`
    select version, job_id::text as "jobId", sha256, byte_length::int as "byteLength",
      chunk_size as "chunkSize", chunk_count as "chunkCount"
    from release_artifacts where version = ${version}`;
  return row;
}

/**
 * Bytes `first` to `last` (inclusive) of an artefact, a chunk at a time. Each chunk is
 * checked before any of it is given out; when the whole artefact is read, the last chunk
 * is given out only once the whole has matched its checksum. A failed check throws
 * `ArtifactCorrupt`.
 */
export async function* artifactBytes(
  sql: Sql,
  artifact: StoredArtifact,
  first = 0,
  last = artifact.byteLength - 1,
): AsyncGenerator<Uint8Array> {
  const whole = first === 0 && last === artifact.byteLength - 1 ? createHash("sha256") : undefined;
  const from = Math.floor(first / artifact.chunkSize);
  const to = Math.floor(last / artifact.chunkSize);
  for (let ordinal = from; ordinal <= to; ordinal++) {
    const [chunk] = await sql<{ sha256: string; bytes: Buffer }[]>`
      select sha256, bytes from release_artifact_chunks where job_id = ${artifact.jobId} and ordinal = ${ordinal}`;
    if (!chunk || sha256(chunk.bytes) !== chunk.sha256)
      throw new ArtifactCorrupt(`chunk ${ordinal} of release ${artifact.version} is missing or altered`);
    whole?.update(chunk.bytes);
    if (ordinal === to && whole && whole.digest("hex") !== artifact.sha256)
      throw new ArtifactCorrupt(`release ${artifact.version} does not match its checksum`);
    const offset = ordinal * artifact.chunkSize;
    yield chunk.bytes.subarray(Math.max(0, first - offset), Math.min(chunk.bytes.length, last - offset + 1));
  }
}
