import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requestRelease } from "../../src/commands/releases/handlers.js";
import { positionFromString } from "../../src/event-store/port.js";
import { loadSamplesIfEmpty, SAMPLE_DIRECTORY } from "../../src/ingest/samples.js";
import { releaseArtifact, releaseStreams } from "../../src/releases/artifact.js";
import { artifactBytes, findSealedArtifact } from "../../src/releases/artifact-store.js";
import { findRelease } from "../../src/releases/queries.js";
import { CricketWorld } from "../support/cricket-world.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { releaseGenerator } from "../support/releases.js";

/**
 * A release of the sample data the embedded default loads on its first start: the SHA-256
 * of the stored artefact, of the bytes served, of a regeneration from the log and the
 * published checksum are one and the same.
 */
let db: TestDatabase;
let world: CricketWorld;

beforeAll(async () => {
  db = await openTestDatabase();
  world = new CricketWorld(db.sql);
  const loaded = await loadSamplesIfEmpty(world.store);
  expect(loaded?.failed).toEqual([]);
  await world.catchUp();
}, 60_000);
afterAll(() => db?.close());

it("publishes the sample data under one checksum: stored, served and regenerated", async () => {
  const { state } = await requestRelease(world.store, "1.0.0", { actor: "test", now: new Date() });
  await world.catchUp();
  const generator = releaseGenerator(db, world);
  expect(await generator.drain()).toBe(1);
  await world.catchUp();

  const release = await findRelease(db.sql, "1.0.0");
  const samples = readdirSync(SAMPLE_DIRECTORY).filter((file) => file.endsWith(".json"));
  expect(release?.scope.counts.fixtures).toBe(samples.length);
  const sealed = await findSealedArtifact(db.sql, state.job.jobId);
  expect(sealed).toMatchObject({ sha256: release?.sha256, byteLength: release?.byteLength });

  const served = createHash("sha256");
  for await (const chunk of artifactBytes(db.sql, sealed as NonNullable<typeof sealed>)) served.update(chunk);
  const regenerated = createHash("sha256");
  const artifact = releaseArtifact(world.store, await releaseStreams(db.sql), {
    version: "1.0.0",
    position: positionFromString(state.job.position),
  });
  for await (const text of artifact.text) regenerated.update(text);
  expect([served.digest("hex"), regenerated.digest("hex")]).toEqual([release?.sha256, release?.sha256]);
}, 60_000);
