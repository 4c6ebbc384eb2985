import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { Hono } from "hono";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { alternate, log, type Measurement, measurement, median, pairedRatio, type Result } from "./support.js";

const CONNECTIONS = 50;
const DURATION_S = 5;
const WARMUP_S = 1;
const REPETITIONS = 5;

export type Load = { requestsPerSecond: number; p50: number; p99: number };

/** The request ceiling of the real app's cheapest route against Hono alone, both on @hono/node-server. */
export async function httpBenchmark(): Promise<Result[]> {
  log("http: GET /api/v1/health vs bare Hono");
  const app = createApp({ logger: createLogger("silent") }, apiRoutes);
  const bare = new Hono().get("/x", (c) => c.json({ ok: true }));
  const health = await listen(app.fetch, "/api/v1/health");
  const ceiling = await listen(bare.fetch, "/x");
  try {
    await load(health.url, WARMUP_S);
    await load(ceiling.url, WARMUP_S);
    const runs = await alternate(
      REPETITIONS,
      () => load(health.url, DURATION_S),
      () => load(ceiling.url, DURATION_S),
    );
    const subject = runs.subject.map((r) => r.requestsPerSecond);
    const baseline = runs.baseline.map((r) => r.requestsPerSecond);
    return [
      {
        benchmark: "http",
        backend: "n/a",
        subject: withLatency(measurement("GET /api/v1/health, real app", "req/s", subject), runs.subject),
        baseline: withLatency(measurement("bare Hono route", "req/s", baseline), runs.baseline),
        ratio: pairedRatio(subject, baseline),
      },
    ];
  } finally {
    await health.close();
    await ceiling.close();
  }
}

export function listen(fetch: (request: Request) => Response | Promise<Response>, path: string) {
  return new Promise<{ url: string; close: () => Promise<void> }>((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({
        url: `http://127.0.0.1:${info.port}${path}`,
        close: () => new Promise((closed) => server.close(() => closed())),
      }),
    );
  });
}

/**
 * The load generator runs in a worker thread so that it and the server (on this thread) each
 * have a core of the two; in one event loop they would measure each other.
 */
export async function load(url: string, duration: number, headers: Record<string, string> = {}): Promise<Load> {
  const result = await loadCounting(url, duration, { headers });
  if (result.failed) throw new Error(`${url}: ${result.failed} requests failed (errors, timeouts, non-2xx answers)`);
  return result;
}

/**
 * A load that counts what failed instead of refusing it: errors, timeouts and non-2xx
 * answers, 5xx among them. `paths` are sent in turn on each connection, against `url`'s origin.
 */
export async function loadCounting(
  url: string,
  duration: number,
  options: {
    headers?: Record<string, string>;
    connections?: number;
    paths?: string[];
    /** Requests sent in turn on each connection instead of `paths` (POST bodies). */
    requests?: { method: "POST"; path: string; body: string; headers: Record<string, string> }[];
  },
): Promise<Load & { failed: number; serverErrors: number }> {
  const result = await autocannon({
    url,
    headers: options.headers ?? {},
    connections: options.connections ?? CONNECTIONS,
    duration,
    workers: 1,
    ...(options.paths ? { requests: options.paths.map((path) => ({ path })) } : {}),
    ...(options.requests ? { requests: options.requests } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
    serverErrors: result["5xx"],
  };
}

export const withLatency = (m: Measurement, runs: readonly Load[]): Measurement => ({
  ...m,
  latencyMs: { p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)) },
});

/** A request to load: what it is called in the results, where it goes, with which headers. */
export type Target = { label: string; url: string; headers?: Record<string, string> };

/** One request under load against another, alternating runs, each warmed up first. */
export async function compareLoads(
  benchmark: string,
  backend: string,
  subject: Target,
  baseline: Target,
): Promise<Result> {
  log(`${benchmark}: ${backend}: ${subject.label}`);
  await load(subject.url, WARMUP_S, subject.headers);
  await load(baseline.url, WARMUP_S, baseline.headers);
  const runs = await alternate(
    REPETITIONS,
    () => load(subject.url, DURATION_S, subject.headers),
    () => load(baseline.url, DURATION_S, baseline.headers),
  );
  const rate = (loads: Load[]) => loads.map((r) => r.requestsPerSecond);
  return {
    benchmark,
    backend,
    subject: withLatency(measurement(subject.label, "req/s", rate(runs.subject)), runs.subject),
    baseline: withLatency(measurement(baseline.label, "req/s", rate(runs.baseline)), runs.baseline),
    ratio: pairedRatio(rate(runs.subject), rate(runs.baseline)),
  };
}

/** One read route under load against the health route of the same server, as the read benchmarks report it. */
export const againstHealth = (benchmark: string, backend: string, label: string, url: string, server: string) =>
  compareLoads(
    benchmark,
    backend,
    { label, url },
    { label: "GET /api/v1/health, same app", url: `${server}/api/v1/health` },
  );
