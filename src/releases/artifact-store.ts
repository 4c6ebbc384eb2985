import { createHash } from "node:crypto";
import type { ReleaseScope } from "../../streams/release.js";
import type { Sql } from "../db/database.js";

/**
 * Where artefacts are kept: in the database, in chunks of a fixed size, each with its own
 * SHA-256, under the generating job (migration 006). Chunks are checked when they are
 * written again by a restarted generation (it must write the same bytes) and whenever they
 * are served; a whole artefact read in one go is checked against its checksum too.
 */

/** 1 MiB: one chunk is one query's worth, and what a download holds in memory at a time. */
export const CHUNK_SIZE = 1 << 20;

/** An artefact whose every chunk is stored, and what it adds up to. */
export type SealedArtifact = {
  jobId: string;
  version: string;
  sha256: string;
  byteLength: number;
  chunkSize: number;
  chunkCount: number;
  /** SHA-256 of the chunks' hex digests in order: ties each chunk's digest to the whole. */
  chunksSha256: string;
  scope: ReleaseScope;
};

/** The artefact's bytes failed their check: what is stored is not what was published. */
export class ArtifactCorrupt extends Error {
  override readonly name = "ArtifactCorrupt";
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Stores an artefact's text as it is written, a chunk at a time, and digests the whole. */
export class ArtifactWriter {
  private readonly hash = createHash("sha256");
  private readonly chunksHash = createHash("sha256");
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
  async finish(): Promise<Omit<SealedArtifact, "version" | "scope">> {
    if (this.pendingBytes > 0) await this.store(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
    return {
      jobId: this.jobId,
      sha256: this.hash.digest("hex"),
      byteLength: this.byteLength,
      chunkSize: this.chunkSize,
      chunkCount: this.chunkCount,
      chunksSha256: this.chunksHash.digest("hex"),
    };
  }

  private async store(bytes: Buffer): Promise<void> {
    const digest = sha256(bytes);
    this.chunksHash.update(digest);
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
 * Records that the job's chunks are the whole artefact, once: sealing again (a restart after
 * the seal) must seal the same bytes.
 */
export async function sealArtifact(sql: Sql, artifact: SealedArtifact): Promise<void> {
  const { jobId, version, sha256: digest, byteLength, chunkSize, chunkCount, chunksSha256, scope } = artifact;
  await sql`
    insert into release_artifacts (job_id, version, sha256, byte_length, chunk_size, chunk_count, chunks_sha256, scope)
    values (${jobId}, ${version}, ${digest}, ${byteLength}, ${chunkSize}, ${chunkCount}, ${chunksSha256},
      ${sql.json(scope)})
    on conflict (job_id) do nothing`;
  const sealed = await findSealedArtifact(sql, jobId);
  if (sealed?.sha256 !== digest) throw new Error(`job ${jobId} sealed other bytes before (${sealed?.sha256})`);
}

/**
 * The artefact a release's publication names: sealed under its job, with the checksum, length
 * and chunks' digest the publication carries. Anything else is `ArtifactCorrupt`.
 */
export async function publishedArtifact(
  sql: Sql,
  release: { jobId: string; version: string; sha256: string; byteLength: number; chunksSha256: string },
): Promise<SealedArtifact> {
  const sealed = await findSealedArtifact(sql, release.jobId);
  if (
    sealed?.sha256 !== release.sha256 ||
    sealed.byteLength !== release.byteLength ||
    sealed.chunksSha256 !== release.chunksSha256
  )
    throw new ArtifactCorrupt(`the sealed artefact of ${release.version} is not the one published`);
  return sealed;
}

export async function findSealedArtifact(sql: Sql, jobId: string): Promise<SealedArtifact | undefined> {
  const [row] = await sql<SealedArtifact[]>`
    select job_id::text as "jobId", version, sha256, byte_length::float8 as "byteLength", chunk_size as "chunkSize",
      chunk_count as "chunkCount", chunks_sha256 as "chunksSha256", scope
    from release_artifacts where job_id = ${jobId}`;
  return row;
}

/**
 * Bytes `first` to `last` (inclusive) of an artefact, a chunk at a time. The chunks' digests
 * are first checked against the sealed digest of them all; each chunk is checked against its
 * digest before any of it is given out; when the whole artefact is read, the last chunk is
 * given out only once the whole has matched its checksum. A failed check throws
 * `ArtifactCorrupt`.
 */
export async function* artifactBytes(
  sql: Sql,
  artifact: SealedArtifact,
  first = 0,
  last = artifact.byteLength - 1,
): AsyncGenerator<Uint8Array> {
  const digests = (
    await sql<{ sha256: string }[]>`
      select sha256 from release_artifact_chunks where job_id = ${artifact.jobId} order by ordinal`
  ).map((row) => row.sha256);
  if (digests.length !== artifact.chunkCount || sha256(digests.join("")) !== artifact.chunksSha256)
    throw new ArtifactCorrupt(`the chunks of release ${artifact.version} are not the ones sealed`);
  const whole = first === 0 && last === artifact.byteLength - 1 ? createHash("sha256") : undefined;
  const from = Math.floor(first / artifact.chunkSize);
  const to = Math.floor(last / artifact.chunkSize);
  for (let ordinal = from; ordinal <= to; ordinal++) {
    const [chunk] = await sql<{ bytes: Buffer }[]>`
      select bytes from release_artifact_chunks where job_id = ${artifact.jobId} and ordinal = ${ordinal}`;
    if (!chunk || sha256(chunk.bytes) !== digests[ordinal])
      throw new ArtifactCorrupt(`chunk ${ordinal} of release ${artifact.version} is missing or altered`);
    whole?.update(chunk.bytes);
    if (ordinal === to && whole && whole.digest("hex") !== artifact.sha256)
      throw new ArtifactCorrupt(`release ${artifact.version} does not match its checksum`);
    const offset = ordinal * artifact.chunkSize;
    yield chunk.bytes.subarray(Math.max(0, first - offset), Math.min(chunk.bytes.length, last - offset + 1));
  }
}
