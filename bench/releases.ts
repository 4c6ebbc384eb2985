import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openDatabase } from "../src/db/database.js";
import { START } from "../src/event-store/port.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { postgresDatabase } from "../test/support/scratch-databases.js";
import { type Server, startServer, stopServer } from "./server.js";
import { log, measurement, pairedRatio, postgresUrl, type Result, seconds } from "./support.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IPL =
  process.env.BENCH_RELEASES_DATA ?? fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const RUNS = Number(process.env.BENCH_RELEASES_RUNS ?? 3);
const SUBJECT = "bench-release-admin";

/**
 * A release of the full IPL as an administrator makes one, on the embedded default and on
 * PostgreSQL: the data imported with `cricket import cricsheet` beside a running server
 * (read models included), then, `RUNS` times on a freshly started server, POST
 * /admin/dataset-releases and the job followed until `published`, timed from the request to
 * the job's answer saying so. The server process's peak resident memory during that run
 * (sampled every 20 ms; the API, projectors and, embedded, the database are in it too) and
 * its resident memory just before. The artefact's size,
 * and the artifact route's download throughput (the whole artefact read over HTTP and
 * checked against its checksum). Baseline: every event of the log read once in process
 * (`readAll` to the head), the least any release written from the log must do.
 */
export async function releasesBenchmark(): Promise<Result[]> {
  const results = [await measure("embedded", embedded)];
  const url = postgresUrl();
  if (url) results.push(await measure("postgres", postgres(url)));
  return results;
}

type Target = () => Promise<{ env: Record<string, string>; drop(): Promise<void> }>;

const embedded: Target = async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bench-releases-"));
  return { env: { DATA_DIR: dataDir, DATABASE_URL: "" }, drop: () => rm(dataDir, { recursive: true, force: true }) };
};

const postgres =
  (url: string): Target =>
  async () => {
    const db = await postgresDatabase(url);
    // The data directory holds the development issuer's key: the bearer tokens the bench sends.
    const dataDir = await mkdtemp(path.join(tmpdir(), "bench-releases-"));
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: db.url },
      drop: async () => {
        await db.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  };

async function measure(backend: string, target: Target): Promise<Result> {
  const db = await target();
  const cli = (...args: string[]) =>
    run(process.execPath, ["bin/cricket.js", ...args], {
      cwd: ROOT,
      env: { ...process.env, ...db.env, REDIS_URL: "", EVENTSTORE_URL: "", LOG_LEVEL: "warn" },
      maxBuffer: 64 * 1024 * 1024,
    });
  try {
    const loading = await startServer(db.env);
    let token: string;
    try {
      log(`releases: ${backend}: importing the full IPL beside a running server`);
      await cli("import", "cricsheet", IPL);
      token = (await cli("token", "--subject", SUBJECT, "--expires-in-minutes", "600")).stdout.trim();
      await call(loading, "GET", "/api/v1/auth/me", token);
      await cli("admin", "promote", SUBJECT);
    } finally {
      await stopServer(loading);
    }

    const generation: number[] = [];
    const peak: number[] = [];
    const before: number[] = [];
    const download: number[] = [];
    const readLog: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const server = await startServer(db.env);
      try {
        const pid = server.child.pid as number;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        before.push(await memory(pid));
        const version = `1.0.${i}`;
        const sampling = sampleMemory(pid);
        generation.push(await seconds(() => released(server, version, token)));
        peak.push(await sampling.stop());
        const { bytes, secs } = await downloaded(server, version);
        size = bytes;
        download.push(bytes / 2 ** 20 / secs);
        readLog.push(await seconds(() => readWholeLog(db.env)));
        log(
          `releases: ${backend}: run ${i + 1}: ${generation.at(-1)?.toFixed(1)} s, peak ${peak.at(-1)?.toFixed(0)} MB (before ${before.at(-1)?.toFixed(0)} MB), ${(bytes / 2 ** 20).toFixed(1)} MB, download ${download.at(-1)?.toFixed(0)} MB/s; the log read in ${readLog.at(-1)?.toFixed(1)} s`,
        );
      } finally {
        await stopServer(server);
      }
    }
    const subject = measurement("release of the full IPL: POST to `published`, through HTTP", "s", generation);
    return {
      benchmark: "releases",
      backend,
      subject: {
        ...subject,
        extra: {
          "peak RSS MB": measurement("", "", peak).median,
          "RSS before MB": measurement("", "", before).median,
          "artefact MB": size / 2 ** 20,
          "download MB/s": measurement("", "", download).median,
        },
      },
      baseline: measurement("every event of the log read once, in process", "s", readLog),
      ratio: pairedRatio(generation, readLog),
    };
  } finally {
    await db.drop();
  }
}

async function call(server: Server, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as { data: Record<string, unknown> };
}

/** Asks for `version` and follows its job until it is published. */
async function released(server: Server, version: string, token: string) {
  const { data: job } = await call(server, "POST", "/api/v1/admin/dataset-releases", token, { version });
  for (;;) {
    const { data } = await call(server, "GET", `/api/v1/admin/dataset-release-jobs/${job.jobId}`, token);
    if (data.status === "published") return;
    if (data.status === "failed") throw new Error(`release ${version} failed: ${data.failure}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The whole artefact over HTTP, checked against the release's checksum. */
async function downloaded(server: Server, version: string) {
  const metadata = (await (await fetch(`${server.origin}/api/v1/dataset-releases/${version}`)).json()) as {
    data: { sha256: string; artifactUrl: string };
  };
  const started = performance.now();
  const res = await fetch(`${server.origin}${metadata.data.artifactUrl}`);
  if (!res.ok || !res.body) throw new Error(`download of ${version}: ${res.status}`);
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of res.body) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  const secs = (performance.now() - started) / 1000;
  if (hash.digest("hex") !== metadata.data.sha256)
    throw new Error(`download of ${version} does not match its checksum`);
  return { bytes, secs };
}

/** Every event, a page at a time, as a client of the server's database. */
async function readWholeLog(env: Record<string, string>) {
  const db = await openDatabase({ dataDir: env.DATA_DIR as string, databaseUrl: env.DATABASE_URL || undefined });
  try {
    const store = new PostgresEventStore(db.sql);
    for (let after = START; ; ) {
      const page = await store.readAll(after, 1000);
      const last = page.at(-1);
      if (!last) return;
      after = last.position;
    }
  } finally {
    await db.close();
  }
}

/** A process's resident memory, in MB. */
async function memory(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

/** The largest resident memory of a process from now until `stop`, sampled every 20 ms. */
function sampleMemory(pid: number) {
  let peak = 0;
  const sample = async () => {
    peak = Math.max(peak, await memory(pid));
  };
  const timer = setInterval(() => void sample(), 20);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}
