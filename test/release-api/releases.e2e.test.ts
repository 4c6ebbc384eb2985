import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { positionFromString } from "../../src/event-store/port.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { releaseArtifact, releaseStreams } from "../../src/releases/artifact.js";
import { releaseStream } from "../../streams/release.js";
import {
  type AccountApi,
  expectError,
  expectUnauthorized,
  openAccountApi,
  type Person,
} from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { cricsheetFile, deliveriesIn, matchFiles, readMatch } from "../support/cricsheet.js";
import { releaseGenerator } from "../support/releases.js";

/**
 * Dataset releases over HTTP: an administrator asks for a version, the generator (drained by
 * hand here) writes it from the log, and anyone lists it, reads its metadata and downloads
 * the exact bytes its checksum covers, whole, in part or conditionally; a regeneration at
 * the same position gives the same bytes; bad requests change nothing.
 */
let a: AccountApi;
let admin: Person;
let generator: ReturnType<typeof releaseGenerator>;
const FIRST = matchFiles("ipl", 335982, 335984);
const LATER = matchFiles("ipl", 335985, 335985);
const ADMIN_PATH = "/api/v1/admin/dataset-releases";

type Job = {
  jobId: string;
  version: string;
  status: string;
  attempts: number;
  progress: { itemsDone: number; itemsTotal: number | null };
  release: Release | null;
};
type Release = {
  version: string;
  position: string;
  byteLength: number;
  sha256: string;
  artifactUrl: string;
  scope: { counts: Record<string, number>; competitions: { name: string; seasons: { fixtures: number }[] }[] };
};
type Artefact = {
  release: { version: string; schemaVersion: string; position: string };
  fixtures: { fixtureId: string; innings: { deliveries: { eventId: string; revision: number }[] }[] }[];
  participants: { participantId: string; name: string }[];
  competitions: unknown[];
};

beforeAll(async () => {
  a = await openAccountApi();
  admin = await a.anAdmin();
  const imported = await importCricsheet(a.world.store, FIRST.map(cricsheetFile));
  expect(imported.failed).toEqual([]);
  await a.world.catchUp();
  generator = releaseGenerator(a.db, a.world);
}, 60_000);
afterAll(() => a?.close());

const request = (body: unknown, by: Person | null = admin) =>
  a.api.post(ADMIN_PATH, body, by ? { token: by.token } : {});
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

function dataOf<T>(res: ApiResponse, status: number): T {
  expect(res.status, res.text).toBe(status);
  return (res.body as { data: T }).data;
}

/** Downloads through the app itself: the contract client reads bodies as text, and a range may cut a character. */
async function download(path: string, headers: Record<string, string> = {}) {
  const res = await a.app.request(path, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** Asks for `version`, generates it and answers its metadata. */
async function published(version: string): Promise<Release> {
  dataOf<Job>(await request({ version }), 202);
  await generator.drain();
  await a.world.catchUp();
  return dataOf<Release>(await a.api.get(`/api/v1/dataset-releases/${version}`), 200);
}

/** The artefact a generation from the log writes at `position` today. */
async function regenerated(version: string, position: string): Promise<string> {
  const artifact = releaseArtifact(a.world.store, await releaseStreams(a.db.sql), {
    version,
    position: positionFromString(position),
  });
  let text = "";
  for await (const piece of artifact.text) text += piece;
  return text;
}

describe("asking for a release", () => {
  it("is for administrators only", async () => {
    expectUnauthorized(await request({ version: "9.0.0" }, null));
    const viewer = await a.signIn();
    expectError(await request({ version: "9.0.0" }, viewer), 403, "FORBIDDEN");
    const job = `/api/v1/admin/dataset-release-jobs/${crypto.randomUUID()}`;
    expectUnauthorized(await a.api.get(job));
    expectError(await a.api.get(job, { token: viewer.token }), 403, "FORBIDDEN");
    expect(await a.world.store.readStream(releaseStream("9.0.0"))).toEqual([]);
  });

  it.each([
    [{}],
    [{ version: "1.0" }],
    [{ version: "01.0.0" }],
    [{ version: "v1.0.0" }],
    [{ version: "1.0.0-rc.1" }],
    [{ version: "1.0.0 " }],
    [{ version: "1000000.0.0" }],
    [{ version: 100 }],
    [{ version: "1.0.0", scope: "ipl" }],
    [["1.0.0"]],
  ])("refuses %j with 422 naming the field, and writes nothing", async (body) => {
    const res = await request(body);
    expectError(res, 422, "VALIDATION_FAILED");
    const fields = (res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(["version", "scope", "body", ""]).toContain(field);
    for (const version of ["1.0", "01.0.0", "1.0.0"])
      expect(await a.world.store.readStream(releaseStream(version))).toEqual([]);
  });

  it("makes one job of many concurrent requests for a version", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => request({ version: "0.1.0" })));
    const jobs = answers.map((res) => dataOf<Job>(res, 202));
    expect(new Set(jobs.map((job) => job.jobId)).size).toBe(1);
    expect(answers[0]?.headers.get("location")).toBe(`/api/v1/admin/dataset-release-jobs/${jobs[0]?.jobId}`);
    const requested = (await a.world.store.readStream(releaseStream("0.1.0"))).filter(
      (e) => e.type === "DatasetReleaseRequested",
    );
    expect(requested).toHaveLength(1);
    const job = dataOf<Job>(
      await a.api.get(`/api/v1/admin/dataset-release-jobs/${jobs[0]?.jobId}`, { token: admin.token }),
      200,
    );
    expect(job).toMatchObject({
      status: "queued",
      attempts: 0,
      progress: { itemsDone: 0, itemsTotal: null },
      release: null,
    });
    expectError(await a.api.get("/api/v1/dataset-releases/0.1.0"), 404, "NOT_FOUND");
  });

  it("answers 404 for an unknown job and for a job id that is not a UUID", async () => {
    const get = (id: string) => a.api.get(`/api/v1/admin/dataset-release-jobs/${id}`, { token: admin.token });
    for (const id of [crypto.randomUUID(), "42", "not-a-uuid"]) expectError(await get(id), 404, "NOT_FOUND");
  });
});

describe("a published release", () => {
  let release: Release;
  let bytes: Uint8Array;

  beforeAll(async () => {
    const accepted = dataOf<Job>(await request({ version: "1.0.0" }), 202);
    expect(await generator.drain()).toBeGreaterThanOrEqual(1);
    await a.world.catchUp();
    const job = dataOf<Job>(
      await a.api.get(`/api/v1/admin/dataset-release-jobs/${accepted.jobId}`, { token: admin.token }),
      200,
    );
    expect(job).toMatchObject({ status: "published", attempts: 1 });
    expect(job.progress.itemsDone).toBe(job.progress.itemsTotal);
    release = job.release as Release;
    bytes = (await download(release.artifactUrl)).bytes;
  }, 60_000);

  it("is the exact bytes its checksum covers, in canonical JSON", async () => {
    expect(bytes.length).toBe(release.byteLength);
    expect(sha256(bytes)).toBe(release.sha256);
    const text = Buffer.from(bytes).toString("utf8");
    expect(canonicalize(JSON.parse(text))).toBe(text);
  });

  it("holds every imported fixture with its deliveries, and says so in its scope", async () => {
    const artefact = JSON.parse(Buffer.from(bytes).toString("utf8")) as Artefact;
    const deliveries = FIRST.reduce((n, file) => n + deliveriesIn(readMatch(file)).length, 0);
    expect(artefact.release).toEqual({ version: "1.0.0", schemaVersion: "1.0", position: release.position });
    expect(artefact.fixtures).toHaveLength(FIRST.length);
    const held = artefact.fixtures.flatMap((f) => f.innings.flatMap((i) => i.deliveries));
    expect(held).toHaveLength(deliveries);
    expect(new Set(held.map((d) => d.revision))).toEqual(new Set([1]));
    expect(release.scope.counts).toMatchObject({ fixtures: FIRST.length, deliveries, competitions: 1, seasons: 1 });
    expect(release.scope.competitions).toMatchObject([{ name: "Indian Premier League", seasons: [{ fixtures: 3 }] }]);
    expect(artefact.participants.length).toBe(release.scope.counts.participants);
    // What the release says of a fixture is what the published reads say.
    const [fixture] = artefact.fixtures;
    const events = await a.api.get(`/api/v1/fixtures/${fixture?.fixtureId}/events?limit=100`);
    const firstPage = (events.body as { data: { eventId: string }[] }).data.map((e) => e.eventId);
    expect(fixture?.innings.flatMap((i) => i.deliveries.map((d) => d.eventId)).slice(0, 100)).toEqual(firstPage);
  });

  it("is regenerated from the log at its position to the same bytes, after later changes too", async () => {
    expect(sha256(await regenerated("1.0.0", release.position))).toBe(release.sha256);
    // After the release: another match, and a correction of one of its deliveries.
    const imported = await importCricsheet(a.world.store, LATER.map(cricsheetFile));
    expect(imported.failed).toEqual([]);
    const [fixture] = (JSON.parse(Buffer.from(bytes).toString("utf8")) as Artefact).fixtures;
    const eventId = fixture?.innings[0]?.deliveries[0]?.eventId as string;
    const history = dataOf<{ recorded: { state: Record<string, unknown> } }>(
      await a.api.get(`/api/v1/submissions/events/${eventId}/history`, { token: admin.token }),
      200,
    );
    const state = history.recorded.state as { runs: { offBat: number; extras: number; total: number } };
    const runs = { ...state.runs, offBat: state.runs.offBat + 1, total: state.runs.total + 1 };
    const corrected = await a.api.put(
      `/api/v1/submissions/events/${eventId}`,
      { fixtureId: fixture?.fixtureId, schemaVersion: "1.0", reason: "scorer's slip", event: { ...state, runs } },
      { token: admin.token },
    );
    expect(corrected.status, corrected.text).toBe(200);
    await a.world.catchUp();

    expect(sha256(await regenerated("1.0.0", release.position))).toBe(release.sha256);
    const next = await published("1.1.0");
    expect(next.scope.counts.fixtures).toBe(FIRST.length + LATER.length);
    expect(next.sha256).not.toBe(release.sha256);
    const later = JSON.parse(await regenerated("1.1.0", next.position)) as Artefact;
    const revised = later.fixtures.find((f) => f.fixtureId === fixture?.fixtureId)?.innings[0]?.deliveries[0];
    expect(revised).toMatchObject({ eventId, revision: 2, runs });
  }, 60_000);

  it("is answered, not generated again, when asked for once more", async () => {
    expect(dataOf<Release>(await request({ version: "1.0.0" }), 200)).toEqual(release);
    const jobs = (await a.world.store.readStream(releaseStream("1.0.0"))).filter(
      (e) => e.type === "DatasetReleaseRequested",
    );
    expect(jobs).toHaveLength(1);
  });

  it("is downloaded as an immutable attachment, conditionally and in ranges", async () => {
    const whole = await download(release.artifactUrl);
    const etag = `"sha256:${release.sha256}"`;
    expect(whole.status).toBe(200);
    expect(Object.fromEntries(whole.headers)).toMatchObject({
      "content-type": "application/json",
      "content-disposition": 'attachment; filename="cricket-dataset-1.0.0.json"',
      etag,
      "accept-ranges": "bytes",
      "cache-control": "public, max-age=31536000, immutable",
      "content-length": String(release.byteLength),
    });
    expect((await download(release.artifactUrl, { "If-None-Match": etag })).status).toBe(304);
    const lastModified = whole.headers.get("last-modified") as string;
    expect((await download(release.artifactUrl, { "If-Modified-Since": lastModified })).status).toBe(304);

    const part = await download(release.artifactUrl, { Range: "bytes=10-99" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-99/${release.byteLength}`);
    expect(part.bytes).toEqual(bytes.subarray(10, 100));
    const tail = await download(release.artifactUrl, { Range: "bytes=-50", "If-Range": etag });
    expect(tail.status).toBe(206);
    expect(tail.bytes).toEqual(bytes.subarray(bytes.length - 50));

    const stale = await download(release.artifactUrl, { Range: "bytes=0-9", "If-Range": '"sha256:0"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.length).toBe(release.byteLength);
    const dated = await download(release.artifactUrl, { Range: "bytes=0-9", "If-Range": lastModified });
    expect(dated.status).toBe(206);
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
    expect((await download(release.artifactUrl, { Range: "bytes=0-9", "If-Range": later })).status).toBe(200);
    const longer = await download(release.artifactUrl, { Range: `bytes=-${release.byteLength + 100}` });
    expect(longer.status).toBe(206);
    expect(longer.headers.get("content-range")).toBe(`bytes 0-${release.byteLength - 1}/${release.byteLength}`);
    expect(longer.bytes).toEqual(bytes);
    for (const whole of ["bytes=0-9,20-29", "bytes=9-2", "items=0-9", "bytes=abc"]) {
      const answer = await download(release.artifactUrl, { Range: whole });
      expect(answer.status, whole).toBe(200);
      expect(answer.bytes).toEqual(bytes);
    }
    expect((await download(release.artifactUrl, { "If-Modified-Since": "2100" })).status).toBe(200);

    const head = await a.app.request(release.artifactUrl, { method: "HEAD", headers: { Range: "bytes=0-9" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
    expect(await head.text()).toBe("");

    const past = await a.api.get(release.artifactUrl, { headers: { Range: `bytes=${release.byteLength}-` } });
    expectError(past, 416, "RANGE_NOT_SATISFIABLE");
    expect(past.headers.get("content-range")).toBe(`bytes */${release.byteLength}`);
  });

  it("is listed newest first, a page at a time", async () => {
    const first = await a.api.get("/api/v1/dataset-releases?limit=1");
    expect(first.status, first.text).toBe(200);
    const page = first.body as { data: Release[]; pagination: { nextCursor: string | null } };
    expect(page.data.map((r) => r.version)).toEqual(["1.1.0"]);
    const second = await a.api.get(`/api/v1/dataset-releases?limit=1&cursor=${page.pagination.nextCursor}`);
    expect((second.body as { data: Release[] }).data).toEqual([release]);
    expectError(await a.api.get("/api/v1/dataset-releases?sort=version"), 400, "VALIDATION_FAILED");
  });

  it("answers 404 for a version never published", async () => {
    for (const path of [
      "/api/v1/dataset-releases/7.7.7",
      "/api/v1/dataset-releases/7.7.7/artifact.json",
      "/api/v1/dataset-releases/latest",
    ])
      expectError(await a.api.get(path), 404, "NOT_FOUND");
  });

  it("cannot be changed or deleted, and is not served once its bytes are altered", async () => {
    await expect(a.db.sql`update release_artifacts set sha256 = 'x' where version = '1.0.0'`).rejects.toThrow(
      /immutable/,
    );
    await expect(a.db.sql`delete from release_artifact_chunks`).rejects.toThrow(/immutable/);
    await expect(a.db.sql`truncate release_artifact_chunks, release_artifacts`).rejects.toThrow(/immutable/);
    // Only by switching the guard off, as an intruder with the database's keys might: the
    // bytes alone, then the bytes with their chunk's digest.
    const alter = async (version: string, digestToo: boolean) => {
      await a.db.sql.begin(async (tx) => {
        await tx`alter table release_artifact_chunks disable trigger release_artifact_chunks_immutable`;
        await tx`
          update release_artifact_chunks set bytes = overlay(bytes placing '\\x20'::bytea from 2 for 1)
          where job_id = (select job_id from release_artifacts where version = ${version})`;
        if (digestToo)
          await tx`
            update release_artifact_chunks set sha256 = encode(sha256(bytes), 'hex')
            where job_id = (select job_id from release_artifacts where version = ${version})`;
        await tx`alter table release_artifact_chunks enable trigger release_artifact_chunks_immutable`;
      });
    };
    for (const [version, digestToo] of [
      ["2.0.0", false],
      ["2.0.1", true],
    ] as const) {
      const altered = await published(version);
      await alter(version, digestToo);
      expectError(await a.api.get(altered.artifactUrl), 503, "ARTIFACT_UNAVAILABLE");
      expect((await download(altered.artifactUrl, { Range: "bytes=0-9" })).status).toBe(503);
    }
    expect(a.logs().filter((line) => line.msg === "a release artefact failed its integrity check")).toHaveLength(4);
  }, 60_000);
});
