import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCommand } from "../../src/commands/handle.js";
import { releaseDecider } from "../../src/commands/releases/decide.js";
import { requestRelease } from "../../src/commands/releases/handlers.js";
import { positionFromString } from "../../src/event-store/port.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { releaseArtifact, releaseStreams } from "../../src/releases/artifact.js";
import { ArtifactWriter, findSealedArtifact, sealArtifact } from "../../src/releases/artifact-store.js";
import { findJob } from "../../src/releases/queries.js";
import { releaseCatalogue, releaseStream } from "../../streams/release.js";
import { CricketWorld } from "../support/cricket-world.js";
import { cricsheetFile, matchFiles } from "../support/cricsheet.js";
import { openTestDatabase, postgresUrl, type TestDatabase } from "../support/databases.js";
import { releaseGenerator } from "../support/releases.js";

/**
 * The generator's two hard cases: an artefact sealed just before its process died (on its
 * last allowed attempt) is published as it is, not failed; and generators in two processes
 * (two instances here, each with its own session) generate a job once between them.
 */
let db: TestDatabase;
let world: CricketWorld;
const generator = () => releaseGenerator(db, world);
const emptyScope = {
  counts: { competitions: 0, seasons: 0, teams: 0, venues: 0, participants: 0, fixtures: 0, innings: 0, deliveries: 0 },
  competitions: [],
};
const context = () => ({ actor: "test", now: new Date() });
const typesOf = async (version: string) => (await world.store.readStream(releaseStream(version))).map((e) => e.type);

beforeAll(async () => {
  db = await openTestDatabase();
  world = new CricketWorld(db.sql);
  const imported = await importCricsheet(world.store, matchFiles("ipl", 335982, 335983).map(cricsheetFile));
  expect(imported.failed).toEqual([]);
  await world.catchUp();
}, 60_000);
afterAll(() => db?.close());

describe("the release generator", () => {
  it("publishes an artefact sealed before a crash, even on the last attempt, without writing it again", async () => {
    const { state } = await requestRelease(world.store, "4.0.0", context());
    const { jobId, position } = state.job;
    for (let attempt = 1; attempt <= 3; attempt++)
      await handleCommand(
        world.store,
        releaseCatalogue,
        releaseStream("4.0.0"),
        releaseDecider,
        { type: "StartGeneration", jobId, itemsTotal: 1 },
        context(),
      );
    // What the third attempt did before its process died: every chunk written, and sealed.
    const artifact = releaseArtifact(world.store, await releaseStreams(db.sql), {
      version: "4.0.0",
      position: positionFromString(position),
    });
    const writer = new ArtifactWriter(db.sql, jobId);
    for await (const text of artifact.text) await writer.write(text);
    const sealed = { version: "4.0.0", ...(await writer.finish()), scope: artifact.scope() };
    await sealArtifact(db.sql, sealed);
    await world.catchUp();

    expect(await generator().drain()).toBe(1);
    const types = await typesOf("4.0.0");
    expect(types.filter((t) => t === "DatasetReleaseGenerationStarted")).toHaveLength(3);
    expect(types.at(-1)).toBe("DatasetReleasePublished");
    const [published] = (await world.store.readStream(releaseStream("4.0.0"))).slice(-1);
    expect(published?.data).toMatchObject({ jobId, sha256: sealed.sha256, chunksSha256: sealed.chunksSha256 });
  }, 60_000);

  it("counts a generation whose thread cannot reach the database, and gives the job up on the third start", async () => {
    const { state } = await requestRelease(world.store, "6.0.0", context());
    await world.catchUp();
    const unreachable = releaseGenerator(db, world, "postgres://postgres@127.0.0.1:1/nothing");
    for (let attempt = 1; attempt <= 4; attempt++) expect(await unreachable.drain()).toBe(0);
    const types = await typesOf("6.0.0");
    expect(types.filter((t) => t === "DatasetReleaseGenerationStarted")).toHaveLength(3);
    expect(types.at(-1)).toBe("DatasetReleaseFailed");
    await world.catchUp();
    expect(await findJob(db.sql, state.job.jobId)).toMatchObject({
      status: "failed",
      attempts: 3,
      failure: "generation began 3 times without finishing",
    });
    expect(await findSealedArtifact(db.sql, state.job.jobId)).toBeUndefined();
    // Asked for again, the version gets a new job, which a generator that reaches the database publishes.
    const again = await requestRelease(world.store, "6.0.0", context());
    expect(again.state.job).toMatchObject({ status: "queued" });
    expect(again.state.job.jobId).not.toBe(state.job.jobId);
    await world.catchUp();
    expect(await generator().drain()).toBe(1);
  }, 60_000);

  it("refuses to store other bytes than an earlier attempt stored, or to seal other bytes again", async () => {
    const jobId = randomUUID();
    const first = new ArtifactWriter(db.sql, jobId, 4);
    await first.write("abcdefgh");
    const sealed = { version: "7.0.0", ...(await first.finish()), scope: emptyScope };
    await sealArtifact(db.sql, sealed);
    const second = new ArtifactWriter(db.sql, jobId, 4);
    await expect(second.write("abcdefgX")).rejects.toThrow(/differs from the one an earlier attempt stored/);
    await expect(sealArtifact(db.sql, { ...sealed, sha256: "0".repeat(64) })).rejects.toThrow(/sealed other bytes/);
    await sealArtifact(db.sql, sealed); // sealing the same bytes again changes nothing
  });

  it.runIf(postgresUrl())(
    "is run once when two generators take the same job at once",
    async () => {
      await requestRelease(world.store, "5.0.0", context());
      await world.catchUp();
      const drained = await Promise.all([generator().drain(), generator().drain()]);
      expect(drained.sort()).toEqual([0, 1]);
      const types = await typesOf("5.0.0");
      expect(types.filter((t) => t === "DatasetReleaseGenerationStarted")).toHaveLength(1);
      expect(types.filter((t) => t === "DatasetReleasePublished")).toHaveLength(1);
    },
    60_000,
  );
});
