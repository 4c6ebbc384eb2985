import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { anEvent } from "../support/events.js";

const run = promisify(execFile);
const cricket = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ["bin/cricket.js", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", EVENTSTORE_URL: "" },
  });

type Status = { projector: string; state: string; generation?: number; eventsApplied?: number }[];

describe("cricket CLI on the embedded database", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "cricket-cli-"));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it("prints help", async () => {
    const { stdout } = await cricket(dataDir, "--help");
    expect(stdout).toContain("projections");
    expect((await cricket(dataDir, "projections", "--help")).stdout).toMatch(/status[\s\S]*rebuild/);
  });

  it("works on a running server's data without stopping it, and on the files when nothing runs", async () => {
    // This process plays the running server: it owns the embedded database.
    const server = await openDatabase({ dataDir, databaseUrl: undefined });
    expect(server.kind).toBe("embedded");
    try {
      await new PostgresEventStore(server.sql).append("fixture-1", [anEvent(), anEvent()], "no_stream");
      const rebuilt = await cricket(dataDir, "projections", "rebuild", "all");
      expect(rebuilt.stdout).toMatch(/stream_versions: generation 2 .* 2 events applied/);
      const [row] = await server.sql`select revision::int from stream_version where stream_id = 'fixture-1'`;
      expect(row).toEqual({ revision: 1 });
    } finally {
      await server.close();
    }

    const { stdout } = await cricket(dataDir, "projections", "status", "--json");
    const status = JSON.parse(stdout) as Status;
    expect(status).toContainEqual(
      expect.objectContaining({ projector: "stream_versions", state: "active", generation: 2, eventsApplied: 2 }),
    );
    const again = await cricket(dataDir, "projections", "rebuild", "stream_versions");
    expect(again.stdout).toMatch(/generation 3 .* 2 events applied/);
  }, 60_000);

  it("refuses an unknown projector with a clear message", async () => {
    await expect(cricket(dataDir, "projections", "rebuild", "nope")).rejects.toMatchObject({
      stderr: expect.stringContaining("unknown projector nope"),
    });
  });
});
