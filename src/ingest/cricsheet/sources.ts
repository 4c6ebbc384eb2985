import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import yauzl from "yauzl";

/** One match file to import: where it came from, Cricsheet's match id, and a way to read it. */
export type MatchSource = { source: string; matchId: string; read: () => Promise<string> };

const MATCH_FILE = /(?:^|\/)(\d+)\.json$/;

/**
 * Lists the match files under the given paths: JSON files, directories (recursively) and
 * the zip archives Cricsheet publishes. Files are read only when asked, so listing a large
 * archive is cheap and the progress bar knows the total up front. Archives stay open until
 * `close()`.
 */
export async function listSources(paths: readonly string[]): Promise<{ sources: MatchSource[]; close(): void }> {
  const archives: yauzl.ZipFile[] = [];
  const sources: MatchSource[] = [];
  for (const p of paths) sources.push(...(await sourcesAt(path.resolve(p), archives)));
  return {
    sources,
    close: () => {
      for (const zip of archives) zip.close();
    },
  };
}

async function sourcesAt(file: string, archives: yauzl.ZipFile[]): Promise<MatchSource[]> {
  const info = await stat(file);
  if (info.isDirectory()) {
    const entries = (await readdir(file)).sort();
    return (await Promise.all(entries.map((entry) => sourcesAt(path.join(file, entry), archives)))).flat();
  }
  if (file.endsWith(".zip")) return zipSources(file, archives);
  const id = MATCH_FILE.exec(file)?.[1];
  return id ? [{ source: file, matchId: id, read: () => readFile(file, "utf8") }] : [];
}

async function zipSources(archive: string, archives: yauzl.ZipFile[]): Promise<MatchSource[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(archive, { lazyEntries: true, autoClose: false }, (error, opened) =>
      error ? reject(error) : resolve(opened),
    ),
  );
  archives.push(zip);
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", resolve);
    zip.once("error", reject);
    zip.readEntry();
  });
  return entries
    .sort((a, b) => a.fileName.localeCompare(b.fileName))
    .flatMap((entry) => {
      const id = MATCH_FILE.exec(entry.fileName)?.[1];
      return id ? [{ source: `${archive}:${entry.fileName}`, matchId: id, read: () => readEntry(zip, entry) }] : [];
    });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<string> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      stream.once("error", reject);
    }),
  );
}
