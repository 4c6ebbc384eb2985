import { mkdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import { accessBenchmark } from "./access.js";
import { appendBenchmark } from "./append.js";
import { batchesBenchmark } from "./batches.js";
import { exportsBenchmark } from "./exports.js";
import { httpBenchmark } from "./http.js";
import { importBenchmark } from "./import.js";
import { importE2eBenchmark } from "./import-e2e.js";
import { pagesBenchmark } from "./pages.js";
import { poolBenchmark } from "./pool.js";
import { projectionBenchmark } from "./projection.js";
import { provenanceBenchmark } from "./provenance.js";
import { questionsBenchmark } from "./questions.js";
import { readsBenchmark } from "./reads.js";
import { releasesBenchmark } from "./releases.js";
import { scaleBenchmark } from "./scale.js";
import { statisticsReadsBenchmark, statisticsRebuildBenchmark } from "./statistics.js";
import { submissionsBenchmark } from "./submissions.js";
import { log, type Measurement, postgresUrl, type Result } from "./support.js";

const benchmarks: Record<string, () => Promise<Result[]>> = {
  append: appendBenchmark,
  projection: projectionBenchmark,
  http: httpBenchmark,
  import: importBenchmark,
  "import-e2e": importE2eBenchmark,
  reads: readsBenchmark,
  scale: scaleBenchmark,
  exports: exportsBenchmark,
  "statistics-reads": statisticsReadsBenchmark,
  "statistics-rebuild": statisticsRebuildBenchmark,
  submissions: submissionsBenchmark,
  access: accessBenchmark,
  pool: poolBenchmark,
  batches: batchesBenchmark,
  provenance: provenanceBenchmark,
  questions: questionsBenchmark,
  releases: releasesBenchmark,
  pages: pagesBenchmark,
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  log(`unknown benchmark ${unknown.join(", ")}; choose from ${Object.keys(benchmarks).join(", ")}`);
  process.exit(2);
}
const selected = requested.length > 0 ? requested : Object.keys(benchmarks);
if (!postgresUrl() && selected.some((name) => name !== "http")) {
  log("BENCH_DATABASE_URL and DATABASE_URL are unset: the Postgres rows are skipped.");
}

const started = performance.now();
const results: Result[] = [];
for (const name of selected) results.push(...(await (benchmarks[name] as () => Promise<Result[]>)()));
const totalSeconds = Math.round((performance.now() - started) / 1000);

const cpus = os.cpus();
const machine = {
  cpus: cpus.length,
  cpuModel: cpus[0]?.model.trim(),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  os: `${os.platform()} ${os.release()} ${os.arch()}`,
};
// A partial run (`npm run bench -- import`, or one backend) replaces only its own rows of the recorded results.
const directory = new URL("./results/", import.meta.url);
const recorded = new URL("latest.json", directory);
const previous = await readFile(recorded, "utf8")
  .then((text) => JSON.parse(text) as { results?: (Result & { date?: string })[] })
  .catch(() => ({ results: [] }));
const date = new Date().toISOString();
const ran = new Set(results.map((r) => `${r.benchmark}\u001f${r.backend}`));
const kept = (previous.results ?? []).filter((r) => !ran.has(`${r.benchmark}\u001f${r.backend}`));
await mkdir(directory, { recursive: true });
await writeFile(
  recorded,
  `${JSON.stringify({ machine, results: [...kept, ...results.map((r) => ({ ...r, date, seconds: totalSeconds }))] }, null, 2)}\n`,
);

const number = (value: number) => Math.round(value).toLocaleString("en-US");
const extras = (m: Measurement) =>
  Object.entries(m.extra ?? {})
    .map(([name, value]) => `${name} ${value.toFixed(1)}`)
    .join(", ");
const cell = (m: Measurement) =>
  `${number(m.median)} ${m.unit}${m.latencyMs ? ` (p50 ${m.latencyMs.p50} ms, p99 ${m.latencyMs.p99} ms)` : ""}${m.extra ? ` (${extras(m)})` : ""}`;
const row = (cells: readonly unknown[]) => `| ${cells.join(" | ")} |`;

process.stdout.write(
  [
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}; ${totalSeconds} s in all`,
    "",
    row(["Benchmark", "Backend", "Measured", "Median", "Baseline", "Baseline median", "Ratio", "Runs"]),
    row(["---", "---", "---", "--:", "---", "--:", "--:", "--:"]),
    ...results.map((r) =>
      row([
        r.benchmark,
        r.backend,
        r.subject.label,
        cell(r.subject),
        r.baseline.label,
        cell(r.baseline),
        `${r.ratio.toFixed(2)}×`,
        r.subject.runs.length,
      ]),
    ),
    "",
  ].join("\n"),
);
