import { fileURLToPath } from "node:url";
import type postgres from "postgres";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { mapMatch } from "../src/ingest/cricsheet/map.js";
import { cricsheetMatchSchema } from "../src/ingest/cricsheet/schema.js";
import { listSources } from "../src/ingest/cricsheet/sources.js";
import { log, measurement, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

const IPL = fileURLToPath(new URL("../../shared/data/cricsheet/ipl", import.meta.url));
const REPETITIONS = Number(process.env.BENCH_IMPORT_REPETITIONS ?? 3);

/**
 * The full IPL collection through `importCricsheet` (parse, map, register references,
 * decide, append) against the floor for its data: the same delivery rows, already mapped,
 * in one multi-row INSERT per match into a plain table of the same database.
 */
export const importBenchmark = (): Promise<Result[]> => onEachDatabase(measureImport);

async function measureImport(sql: Sql, backend: string): Promise<Result> {
  const rows = await deliveryRows();
  const matches = rows.length;
  const deliveries = rows.reduce((n, m) => n + m.length, 0);
  log(`import: ${backend}, ${matches} IPL matches, ${deliveries} deliveries, ${REPETITIONS} runs`);
  await sql`create table plain_delivery (
    event_id uuid primary key, fixture_id text not null, innings_id text not null, sequence_number integer not null,
    over_number integer not null, position_in_over integer not null, striker_id text not null, non_striker_id text not null,
    bowler_id text not null, runs jsonb not null, extras jsonb not null, wickets jsonb not null)`;

  const peaks: number[] = [];
  const viaImport = async () => {
    await sql`truncate commits, event_ids, streams`;
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    const elapsed = await seconds(async () => {
      const summary = await importCricsheet(new PostgresEventStore(sql), [IPL]);
      if (summary.imported !== matches)
        throw new Error(`imported ${summary.imported} of ${matches}: ${JSON.stringify(summary.failed.slice(0, 3))}`);
    });
    clearInterval(sampler);
    peaks.push(peak / 2 ** 20);
    return deliveries / elapsed;
  };
  const plainInsert = async () => {
    await sql`truncate plain_delivery`;
    const elapsed = await seconds(async () => {
      for (const match of rows) await sql`insert into plain_delivery ${sql(match)}`;
    });
    return deliveries / elapsed;
  };

  const subject: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < REPETITIONS; i++) {
    subject.push(await viaImport());
    baseline.push(await plainInsert());
  }
  const seconds_ = subject.map((rate) => deliveries / rate);
  log(
    `import: ${backend}: ${seconds_.map((s) => `${s.toFixed(1)} s`).join(", ")}; peak RSS ${peaks.map((p) => `${p.toFixed(0)} MiB`).join(", ")}`,
  );
  return {
    benchmark: "import",
    backend,
    subject: {
      ...measurement(`importCricsheet, full IPL (${matches} matches)`, "deliveries/s", subject),
      extra: {
        matchesPerSecond: measurement(
          "matches/s",
          "matches/s",
          subject.map((r) => (r / deliveries) * matches),
        ).median,
        seconds: measurement("s", "s", seconds_).median,
        peakRssMiB: measurement("MiB", "MiB", peaks).median,
      },
    },
    baseline: measurement(
      "plain multi-row INSERT of the mapped delivery rows, one per match",
      "deliveries/s",
      baseline,
    ),
    ratio: pairedRatio(subject, baseline),
  };
}

/** Every IPL delivery as a plain row, mapped before timing starts. */
async function deliveryRows() {
  const { sources, close } = await listSources([IPL]);
  try {
    return await Promise.all(
      sources.map(async (source) => {
        const match = mapMatch(source.matchId, cricsheetMatchSchema.parse(JSON.parse(await source.read())));
        return match.fixture.deliveries.map((d) => ({
          event_id: d.eventId,
          fixture_id: match.fixture.scheduled.fixtureId,
          innings_id: d.inningsId,
          sequence_number: d.sequenceNumber,
          over_number: d.overNumber,
          position_in_over: d.positionInOver,
          striker_id: d.strikerId,
          non_striker_id: d.nonStrikerId,
          bowler_id: d.bowlerId,
          runs: d.runs as postgres.JSONValue,
          extras: d.extras as postgres.JSONValue,
          wickets: d.wickets as postgres.JSONValue,
        }));
      }),
    );
  } finally {
    close();
  }
}
