import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleCommand } from "../../src/commands/handle.js";
import { type ReleaseCommand, releaseDecider } from "../../src/commands/releases/decide.js";
import { releases } from "../../src/projections/releases.js";
import { releaseCatalogue, releaseStream } from "../../streams/release.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

const TABLES = ["release_job", "dataset_release"];
const JOB = "2b1f2f4e-7a1c-4d0e-9b8a-0c3f6d5e4a21";
const FAILING = "6d0c2a51-3e6f-4b7a-8c19-5f2e1d0a9b34";
const scope = {
  counts: { competitions: 0, seasons: 0, teams: 0, venues: 0, participants: 0, fixtures: 0, innings: 0, deliveries: 0 },
  competitions: [],
};

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`releases read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    let oneAtATime: Record<string, string[]>;

    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [releases]);
      let minute = 0;
      const step = async (version: string, command: ReleaseCommand) => {
        const now = new Date(Date.UTC(2026, 10, 27, 5, minute++));
        await handleCommand(world.store, releaseCatalogue, releaseStream(version), releaseDecider, command, {
          actor: "admin-1",
          now,
        });
        await world.catchUp(); // each event applied in a batch of its own
      };
      const request = (jobId: string) => ({ type: "RequestRelease" as const, version: "", jobId, position: "7:42" });
      await step("1.0.0", { ...request(JOB), version: "1.0.0" });
      await step("1.0.0", { type: "StartGeneration", jobId: JOB, itemsTotal: 40 });
      await step("1.0.0", { type: "RecordProgress", jobId: JOB, attempt: 1, itemsDone: 10 });
      await step("1.0.0", { type: "RecordProgress", jobId: JOB, attempt: 1, itemsDone: 20 });
      await step("1.0.0", { type: "StartGeneration", jobId: JOB, itemsTotal: 41 });
      await step("1.0.0", { type: "RecordProgress", jobId: JOB, attempt: 2, itemsDone: 5 });
      await step("1.0.0", { type: "RecordProgress", jobId: JOB, attempt: 2, itemsDone: 30 });
      await step("1.0.0", {
        type: "PublishRelease",
        jobId: JOB,
        byteLength: 1234,
        sha256: "a".repeat(64),
        chunksSha256: "b".repeat(64),
        scope,
      });
      await step("2.0.0", { ...request(FAILING), version: "2.0.0" });
      for (let attempt = 1; attempt <= 4; attempt++)
        await step("2.0.0", { type: "StartGeneration", jobId: FAILING, itemsTotal: 40 });
      oneAtATime = await snapshot(db.sql, TABLES);
    });
    afterAll(() => db?.close());

    it("shows each job's state, attempts, progress and times, and the release", async () => {
      const jobs = await db.sql`
        select version, status, attempts, items_done, items_total, failure from release_job order by version`;
      expect(jobs).toEqual([
        { version: "1.0.0", status: "published", attempts: 2, items_done: 41, items_total: 41, failure: null },
        {
          version: "2.0.0",
          status: "failed",
          attempts: 3,
          items_done: 0,
          items_total: 40,
          failure: "generation began 3 times without finishing",
        },
      ]);
      expect(await db.sql`select version, job_id::text, byte_length::int, position from dataset_release`).toEqual([
        { version: "1.0.0", job_id: JOB, byte_length: 1234, position: "7:42" },
      ]);
    });

    it("is the same built from the whole log in one batch, and unchanged by a replay", async () => {
      await world.runner.rebuild("releases");
      expect(await snapshot(db.sql, TABLES)).toEqual(oneAtATime);
      await replayWholeLog(db.sql, world.store, releases);
      expect(await snapshot(db.sql, TABLES)).toEqual(oneAtATime);
    });
  });
}
