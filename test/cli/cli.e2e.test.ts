import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { projectors } from "../../src/projections/registry.js";
import { CRICSHEET } from "../support/cricsheet.js";
import { anEvent } from "../support/events.js";

const run = promisify(execFile);
const cricket = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ["bin/cricket.js", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", EVENTSTORE_URL: "" },
  });

const IPL = path.join(CRICSHEET, "ipl");

/** Waits, as another client of the running server, until the import has stored events. */
async function untilEventsStored(dataDir: string) {
  const client = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    expect(client.kind).toBe("embedded-client");
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const [row] = await client.sql<{ stored: boolean }[]>`select exists (select from events) as stored`;
      if (row?.stored) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error("the import stored nothing within 60 s");
  } finally {
    await client.close();
  }
}

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
      // A little write-ahead log, not Postgres's 1 GB: it was half the directory after an import.
      expect(
        await server.sql`select current_setting('max_wal_size') as max, current_setting('min_wal_size') as min`,
      ).toEqual([{ max: "64MB", min: "32MB" }]);
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

  it("stops within seconds, saying why, when the server it was using dies", async () => {
    const owner = spawn(process.execPath, ["--import", "tsx", "test/cli/embedded-owner.ts", dataDir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const [ready] = (await once(owner.stdout, "data")) as [Buffer];
      expect(ready.toString()).toBe("ready\n");
      // Enough matches that the import is still running when its server goes.
      const importing = cricket(dataDir, "import", "cricsheet", IPL);
      await untilEventsStored(dataDir);
      owner.kill("SIGKILL");
      const killedAt = performance.now();
      const failure = await importing.catch((error: { code: number; stderr: string }) => error);
      expect(performance.now() - killedAt).toBeLessThan(5000);
      expect(failure).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/\(pid \d+\) stopped while this command ran.*run the command again/s),
      });
    } finally {
      owner.kill("SIGKILL");
    }
  }, 120_000);

  it("imports with progress for every phase, in plain lines when the output is not a terminal", async () => {
    const files = ["335982", "335983", "335984"].map((id) => path.join(IPL, `${id}.json`));
    const { stdout, stderr } = await cricket(dataDir, "import", "cricsheet", ...files);
    expect(stdout).toMatch(/^3 matches in [\d.]+s: 3 imported/m);
    const lines = stderr.split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/ 3\/3 matches \| 3 new, 0 revised, 0 unchanged, 0 failed/));
    for (const { name } of projectors) {
      // The last line of each projector's catch-up: all of the log it had to read, done.
      const last = lines.filter((line) => line.startsWith(`${name} `)).at(-1);
      expect(last, name).toMatch(/ (\d+)\/\1 events \| 0s left$/);
    }
  }, 60_000);

  it("refuses an unknown projector with a clear message", async () => {
    await expect(cricket(dataDir, "projections", "rebuild", "nope")).rejects.toMatchObject({
      stderr: expect.stringContaining("unknown projector nope"),
    });
  });
});
