import { randomUUID } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The text of a private file in DATA_DIR, written with `create()` on first use. The server
 * and a CLI may both start on a fresh DATA_DIR, so the file is written aside and hard-linked
 * into place: exactly one content wins, and nobody reads a half-written file. Mode 0600:
 * these files hold keys.
 */
export async function readOrCreateFile(file: string, create: () => Promise<string> | string): Promise<string> {
  const existing = await readIfPresent(file);
  if (existing !== undefined) return existing;
  await mkdir(path.dirname(file), { recursive: true });
  const pending = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(pending, await create(), { mode: 0o600, flag: "wx" });
    await link(pending, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  } finally {
    await unlink(pending).catch(() => {});
  }
  return readFile(file, "utf8");
}

const readIfPresent = (file: string) =>
  readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
