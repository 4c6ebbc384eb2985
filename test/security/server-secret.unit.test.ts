import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Secret } from "../../src/config.js";
import { openServerSecret, SERVER_SECRET_FILE, serverSecret } from "../../src/security/server-secret.js";

const dirs: string[] = [];
const aDataDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "server-secret-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("server secret", () => {
  it("digests each purpose under its own key, and the same value the same way every time", () => {
    const secret = serverSecret("a".repeat(32));
    const key = secret.digest("api-key", "203.0.113.7");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.digest("api-key", "203.0.113.7")).toBe(key);
    expect(secret.digest("client-address", "203.0.113.7")).not.toBe(key);
    expect(serverSecret("b".repeat(32)).digest("api-key", "203.0.113.7")).not.toBe(key);
  });

  it("uses SERVER_SECRET when set, writing nothing", async () => {
    const dataDir = await aDataDir();
    const configured = await openServerSecret({ dataDir, serverSecret: new Secret("c".repeat(32)) });
    expect(configured.digest("api-key", "x")).toBe(serverSecret("c".repeat(32)).digest("api-key", "x"));
    await expect(stat(path.join(dataDir, SERVER_SECRET_FILE))).rejects.toThrow(/ENOENT/);
  });

  it("creates one private key file in DATA_DIR on first start and keeps using it, even when opened at once", async () => {
    const dataDir = await aDataDir();
    const opened = await Promise.all(
      Array.from({ length: 5 }, () => openServerSecret({ dataDir, serverSecret: undefined })),
    );
    const digests = new Set(opened.map((s) => s.digest("api-key", "x")));
    expect(digests.size).toBe(1);
    const file = path.join(dataDir, SERVER_SECRET_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim().length).toBeGreaterThanOrEqual(32);
    const again = await openServerSecret({ dataDir, serverSecret: undefined });
    expect(again.digest("api-key", "x")).toBe([...digests][0]);
  });

  it("refuses a key file that holds no secret", async () => {
    const dataDir = await aDataDir();
    await writeFile(path.join(dataDir, SERVER_SECRET_FILE), "short\n");
    await expect(openServerSecret({ dataDir, serverSecret: undefined })).rejects.toThrow(/delete it/);
  });
});
