import type { Sql } from "../src/db/database.js";
import { START } from "../src/event-store/port.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { streamVersions } from "../src/projections/stream-versions.js";
import { alternate, innings, log, measurement, onEachDatabase, pairedRatio, type Result, seconds } from "./support.js";

const EVENTS = 20_000;
const INNINGS = 250;
const BATCH_SIZE = 500;
const REPETITIONS = 5;

/**
 * Catch-up of the real stream_versions projector (one multi-row upsert per run of events)
 * from the start of a seeded log, against only reading that log through the store in the
 * runner's batch size: the gap is what applying batches in checkpointed transactions costs.
 */
export const projectionBenchmark = (): Promise<Result[]> => onEachDatabase(measureCatchUp);

async function measureCatchUp(sql: Sql, backend: string): Promise<Result> {
  log(`projection: ${backend}`);
  const store = new PostgresEventStore(sql);
  for (let fixture = 0; fixture < EVENTS / INNINGS; fixture++) {
    await store.append(`fixture-${fixture}`, innings(INNINGS), "no_stream");
  }

  // A new name per run is a new projector with an empty checkpoint, so every run starts at the beginning.
  let generation = 0;
  const catchUp = async () => {
    const projector = { ...streamVersions, name: `stream_versions_${++generation}` };
    const runner = new ProjectionRunner(sql, store, [projector], { batchSize: BATCH_SIZE });
    return EVENTS / (await seconds(() => runner.catchUp()));
  };
  const readLog = async () =>
    EVENTS /
    (await seconds(async () => {
      for (let after = START; ; ) {
        const last = (await store.readAll(after, BATCH_SIZE)).at(-1);
        if (!last) return;
        after = last.position;
      }
    }));

  // Discarded: the first runs pay for JIT, prepared statements and a cold buffer cache.
  await catchUp();
  await readLog();
  const runs = await alternate(REPETITIONS, catchUp, readLog);
  return {
    benchmark: "projection",
    backend,
    subject: measurement(`ProjectionRunner.catchUp, stream_versions, ${EVENTS} events`, "events/s", runs.subject),
    baseline: measurement(`EventStore.readAll only, batches of ${BATCH_SIZE}`, "events/s", runs.baseline),
    ratio: pairedRatio(runs.subject, runs.baseline),
  };
}
