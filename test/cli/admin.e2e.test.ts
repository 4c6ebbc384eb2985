import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureAccount, requestDeletion } from "../../src/commands/accounts/handlers.js";
import { openDatabase } from "../../src/db/database.js";
import { openEventStore } from "../../src/event-store/open.js";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { accountIdForSubject, accountStream } from "../../streams/account.js";

const run = promisify(execFile);
const cricket = (dataDir: string, ...args: string[]) =>
  run(process.execPath, ["bin/cricket.js", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", EVENTSTORE_URL: "" },
  });

describe("cricket admin promote", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "cricket-admin-"));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it("bootstraps the first admin, creating the account, and changes nothing when run again", async () => {
    const accountId = accountIdForSubject("first-admin");
    const first = await cricket(dataDir, "admin", "promote", "first-admin");
    expect(first.stdout).toBe(`first-admin is now an administrator (account ${accountId}, created)\n`);
    const again = await cricket(dataDir, "admin", "promote", "first-admin");
    expect(again.stdout).toBe(`first-admin is already an administrator (account ${accountId})\n`);

    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      const events = await openEventStore({ eventStoreUrl: undefined }, db.sql).readStream(accountStream(accountId));
      expect(events.map((e) => [e.type, e.data, e.metadata.actor])).toEqual([
        ["AccountCreated", { accountId, subject: "first-admin", displayName: "first-admin" }, "cli"],
        ["AccountPromoted", { role: "admin", decidedBy: "cli" }, "cli"],
      ]);
      // Read-your-writes: the read model has the admin when the command returns.
      const rows = await db.sql`select subject, role, decided_by from account where account_id = ${accountId}`;
      expect(rows).toEqual([{ subject: "first-admin", role: "admin", decided_by: "cli" }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("promotes an existing account and refuses a disabled one with a clear message", async () => {
    const db = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      const store = new PostgresEventStore(db.sql);
      const now = new Date();
      await ensureAccount(store, { subject: "viewer", displayName: "Vera" }, { now });
      const leaving = await ensureAccount(store, { subject: "leaving", displayName: "Lee" }, { now });
      await requestDeletion(store, leaving.account.accountId, { now });
    } finally {
      await db.close();
    }
    const promoted = await cricket(dataDir, "admin", "promote", "viewer");
    expect(promoted.stdout).toMatch(/^viewer is now an administrator \(account [0-9a-f-]+\)\n$/);
    await expect(cricket(dataDir, "admin", "promote", "leaving")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/is disabled \(deletion requested\); cannot promote it/),
    });
  }, 60_000);
});
