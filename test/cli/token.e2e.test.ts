import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config.js";
import { openIdentity } from "../../src/identity/open.js";
import { signedInWithin } from "../../src/identity/verifier.js";

const run = promisify(execFile);
const cricket = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ["bin/cricket.js", ...args], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      REDIS_URL: "",
      EVENTSTORE_URL: "",
      AUTH_JWKS_URL: "",
      AUTH_ISSUER: "",
      ...env,
    },
  });

describe("cricket token", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "cricket-token-"));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it("prints a bearer token the server of the same DATA_DIR accepts", async () => {
    const { stdout } = await cricket(
      { DATA_DIR: dataDir },
      "token",
      "--subject",
      "alice",
      "--email",
      "alice@example.com",
      "--name",
      "Alice",
      "--signed-in-minutes-ago",
      "20",
    );
    const { verifier } = await openIdentity(loadSettings({ DATA_DIR: dataDir }));
    const identity = await verifier.verify(stdout.trim());
    expect(identity).toMatchObject({ subject: "alice", email: "alice@example.com", displayName: "Alice" });
    expect(signedInWithin(identity, 15)).toBe(false);

    const fresh = await cricket({ DATA_DIR: dataDir }, "token", "--subject", "alice");
    expect(signedInWithin(await verifier.verify(fresh.stdout.trim()), 15)).toBe(true);
  });

  it("refuses when a real identity provider is configured", async () => {
    await expect(
      cricket(
        { DATA_DIR: dataDir, AUTH_JWKS_URL: "https://idp.example/jwks.json", AUTH_ISSUER: "https://idp.example" },
        "token",
        "--subject",
        "alice",
      ),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("AUTH_JWKS_URL is set") });
  });

  it("requires a subject and sane minutes", async () => {
    await expect(cricket({ DATA_DIR: dataDir }, "token")).rejects.toMatchObject({
      stderr: expect.stringContaining("--subject"),
    });
    await expect(
      cricket({ DATA_DIR: dataDir }, "token", "--subject", "a", "--signed-in-minutes-ago", "-3"),
    ).rejects.toMatchObject({ stderr: expect.stringContaining("expected minutes") });
  });
});
