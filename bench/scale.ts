import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { memoryCache } from "../src/cache/memory.js";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import type { ScratchDatabase } from "../test/support/scratch-databases.js";
import { listen, loadCounting } from "./http.js";
import { publicReads } from "./reads.js";
import { log, measurement, median, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

/** The full IPL, or `BENCH_SCALE_DATA` (a directory of Cricsheet files holding IPL 2016) to try the benchmark out. */
const IPL = process.env.BENCH_SCALE_DATA ?? fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
/** At most 26: a copy respells names by its own shift of the alphabet (`respelled`). */
const COPIES = Math.min(26, Math.max(2, Number(process.env.BENCH_SCALE_COPIES ?? 5)));
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 3);
const DURATION_S = 2;
/**
 * Lists whose default first page holds more at five IPLs than at one (50 seasons against 18,
 * 50 teams against 15), read again a page that is full at both sizes: the same answer size.
 */
const FULL_PAGES = ["/seasons", "/competitors"].map((list) => ({
  label: `GET ${list}?limit=10`,
  path: `/api/v1${list}?limit=10`,
}));
/** What does not grow with the data at all: its ratio is the machine's drift between the two sizes. */
const HEALTH = { label: "GET /health (no data read)", path: "/api/v1/health" };

/**
 * Whether cost grows no faster than the work: the full IPL imported once, then again as
 * re-keyed copies (other match ids, competition, teams, venues and register ids, so each copy
 * is new data of the same shape) until it is loaded `COPIES` times over. Each copy's import
 * is timed to its read models caught up; every public read's mean latency (one connection,
 * no cache) is taken at one IPL and at `COPIES`, for the same fixture, player and season.
 */
export const scaleBenchmark = (): Promise<Result[]> => onEachDatabase(measureScale);

async function measureScale(sql: Sql, backend: string, { reads }: ScratchDatabase): Promise<Result[]> {
  const store = new PostgresEventStore(sql);
  const runner = new ProjectionRunner(sql, store, projectors);
  const app = await listen(
    createApp({ logger: createLogger("silent"), sql, reads, cache: memoryCache({ maxEntries: 0 }) }, apiRoutes).fetch,
    "",
  );
  const copies = await mkdtemp(path.join(os.tmpdir(), "cricket-scale-"));
  try {
    const perMatch: number[] = [];
    const sizes: number[] = [];
    let paths: { label: string; path: string }[] = [];
    let atOne = new Map<string, number[]>();
    let sizesAtOne = new Map<string, number>();
    for (let copy = 1; copy <= COPIES; copy++) {
      const source = copy === 1 ? IPL : await rekeyedCopy(copies, copy);
      let matches = 0;
      let files = 0;
      const took = await seconds(async () => {
        const summary = await importCricsheet(store, [source]);
        if (summary.failed.length > 0)
          throw new Error(`copy ${copy}: ${summary.failed.length} matches failed to import`);
        matches = summary.matches;
        files = summary.seconds;
        if (matches === 0) throw new Error(`copy ${copy}: no matches in ${source}`);
        await runner.catchUp(undefined, { timeoutMs: 60 * 60_000 });
      });
      perMatch.push(took / matches);
      sizes.push(await databaseBytes(sql));
      log(
        `scale: ${backend}: copy ${copy} of ${COPIES}: ${matches} matches in ${took.toFixed(0)} s (files ${files.toFixed(0)} s, then the read models)`,
      );
      if (copy !== 1) await rm(source, { recursive: true, force: true });
      if (copy === 1) {
        paths = [...(await publicReads(app.url)), ...FULL_PAGES, HEALTH];
        atOne = await latencies(app.url, paths);
        sizesAtOne = await answerSizes(app.url, paths);
      }
    }
    const atMany = await latencies(app.url, paths);
    const sizesAtMany = await answerSizes(app.url, paths);
    const baselineImport = perMatch[0] as number;
    const later = perMatch.slice(1);
    const imports: Result = {
      benchmark: "scale",
      backend,
      subject: {
        ...measurement(`import of copies 2 to ${COPIES}, per match`, "ms", later.map(toMs)),
        extra: { [`database MB at ${COPIES}×`]: Math.round((sizes.at(-1) as number) / 2 ** 20) },
      },
      baseline: {
        ...measurement("import of the first copy, per match", "ms", [toMs(baselineImport)]),
        extra: { "database MB at 1×": Math.round((sizes[0] as number) / 2 ** 20) },
      },
      ratio: median(later) / baselineImport,
    };
    return [
      imports,
      ...paths.map(({ label }): Result => {
        const one = atOne.get(label) as number[];
        const many = atMany.get(label) as number[];
        return {
          benchmark: "scale",
          backend,
          subject: {
            ...measurement(`${label}, latency at ${COPIES}× the IPL`, "ms", many),
            extra: { bytes: sizesAtMany.get(label) as number },
          },
          baseline: {
            ...measurement(`${label}, latency at one IPL`, "ms", one),
            extra: { bytes: sizesAtOne.get(label) as number },
          },
          ratio: pairedRatio(many, one),
        };
      }),
    ];
  } finally {
    await app.close();
    await rm(copies, { recursive: true, force: true });
  }
}

const toMs = (s: number) => Math.round(s * 1000 * 100) / 100;

/**
 * Each read's mean latency in ms with one connection and nothing cached, `RUNS` times in
 * turn: the inverse of its rate, since autocannon's percentiles are whole milliseconds.
 */
async function latencies(server: string, paths: { label: string; path: string }[]) {
  const runs = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run++)
    for (const { label, path: read } of paths) {
      const result = await loadCounting(`${server}${read}`, DURATION_S, { connections: 1 });
      if (result.failed) throw new Error(`${read}: ${result.failed} requests failed`);
      runs.set(label, [...(runs.get(label) ?? []), Math.round((1000 / result.requestsPerSecond) * 1000) / 1000]);
    }
  return runs;
}

/** Each read's answer in bytes: a list whose page fills up as the data grows does more work. */
async function answerSizes(server: string, paths: { label: string; path: string }[]) {
  const sizes = new Map<string, number>();
  for (const { label, path: read } of paths)
    sizes.set(label, (await (await fetch(`${server}${read}`)).arrayBuffer()).byteLength);
  return sizes;
}

async function databaseBytes(sql: Sql): Promise<number> {
  const [row] = await sql<{ bytes: string }[]>`select pg_database_size(current_database())::text as bytes`;
  return Number(row?.bytes);
}

/**
 * The IPL as copy `copy`: every match id, the competition, each team, the venue and every
 * register id take a suffix and every person's name is respelled, so the copy shares no
 * identity with the original (the fixture, season, teams and players are new, with names of
 * their own) while its cricket is the same.
 */
async function rekeyedCopy(into: string, copy: number): Promise<string> {
  const directory = path.join(into, `copy-${copy}`);
  await mkdir(directory);
  for (const name of await readdir(IPL)) {
    if (!name.endsWith(".json")) continue;
    const match = JSON.parse(await readFile(path.join(IPL, name), "utf8")) as CricsheetMatch;
    await writeFile(path.join(directory, `${copy}${name}`), JSON.stringify(rekeyed(match, copy)));
  }
  return directory;
}

type CricsheetMatch = {
  info: {
    teams: string[];
    event?: { name?: string };
    venue?: string;
    registry?: { people?: Record<string, string> };
  };
};

function rekeyed(match: CricsheetMatch, copy: number): unknown {
  const suffix = ` (copy ${copy})`;
  const names = new Map([
    ...match.info.teams.map((team): [string, string] => [team, `${team}${suffix}`]),
    ...Object.keys(match.info.registry?.people ?? {}).map((name): [string, string] => [name, respelled(name, copy)]),
  ]);
  const renamed = renameDeep(match, (text) => names.get(text) ?? text) as CricsheetMatch;
  const { info } = renamed;
  if (info.event?.name) info.event.name += suffix;
  if (info.venue) info.venue += suffix;
  const people = info.registry?.people ?? {};
  for (const [name, id] of Object.entries(people)) people[name] = `${id}-${copy}`;
  return renamed;
}

/**
 * A person's name as copy `copy` spells it, each letter `copy - 1` places on ("V Kohli", "W
 * Lpimj", …): a copy's people are other people, as more data brings, and a search for a
 * name of the first copy answers the same few people at five copies as at one.
 */
const respelled = (name: string, copy: number) =>
  name.replace(/[a-z]/gi, (letter) => {
    const base = letter <= "Z" ? 65 : 97;
    return String.fromCharCode(base + ((letter.charCodeAt(0) - base + copy - 1) % 26));
  });

/** The value with every string (object keys too) passed through `rename`: team and people's names appear in many places. */
function renameDeep(value: unknown, rename: (text: string) => string): unknown {
  if (typeof value === "string") return rename(value);
  if (Array.isArray(value)) return value.map((item) => renameDeep(item, rename));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameDeep(item, rename)]));
  return value;
}
