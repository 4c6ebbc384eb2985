import { MultiBar, SingleBar } from "cli-progress";
import type { Command } from "commander";
import { importCricsheet } from "../ingest/cricsheet/import.js";
import { projectors } from "../projections/registry.js";
import type { ProjectionRunner } from "../projections/runner.js";
import type { Runtime } from "../runtime.js";

type WithRuntime = <T>(work: (runtime: Runtime) => Promise<T>) => Promise<T>;

export function importCommands(program: Command, withRuntime: WithRuntime) {
  const imports = program.command("import").description("load data from outside sources");

  imports
    .command("cricsheet")
    .argument("<paths...>", "Cricsheet JSON match files, directories of them, or the zip archives Cricsheet publishes")
    .option("--concurrency <n>", "matches imported at once", (v) => Number.parseInt(v, 10), 4)
    .description(
      "import Cricsheet matches; importing a file again changes nothing, a re-issued file becomes corrections",
    )
    .action((paths: string[], options: { concurrency: number }) =>
      withRuntime(async ({ store, projections }) => {
        const bar = progressBar(
          "{bar} {value}/{total} matches | {imported} new, {revised} revised, {unchanged} unchanged, {failed} failed | {eta_formatted} left",
        );
        const counts = { imported: 0, revised: 0, unchanged: 0, failed: 0 };
        let started = false;
        const summary = await importCricsheet(store, paths, {
          concurrency: options.concurrency,
          onProgress: ({ done, total, outcome }) => {
            if (!started) {
              bar.start(total, 0, counts);
              started = true;
            }
            counts[outcome] += 1;
            bar.update(done, counts);
          },
        });
        if (started) bar.stop();
        process.stdout.write("Updating read models…\n");
        await catchUpShowingProgress(projections);
        process.stdout.write(
          `${summary.matches} matches in ${summary.seconds.toFixed(1)}s: ${summary.imported} imported, ${summary.revised} revised, ` +
            `${summary.unchanged} unchanged (already imported), ${summary.failed.length} failed; ${summary.deliveriesWritten} delivery events written\n`,
        );
        for (const failure of summary.failed) process.stdout.write(`  failed ${failure.source}: ${failure.reason}\n`);
        if (summary.failed.length > 0) process.exitCode = 1;
      }),
    );
}

const BAR_OPTIONS = { hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000, etaBuffer: 50 };

/**
 * A bar on a terminal; elsewhere (a log, CI) a plain line every few seconds and a last one
 * at the end, so a long phase never looks stuck.
 */
const progressBar = (format: string) => new SingleBar({ ...BAR_OPTIONS, format });

/** The projectors' catch-up (together), a bar each: log positions done of those to read, and time left. */
async function catchUpShowingProgress(projections: ProjectionRunner) {
  const bars = new MultiBar({
    ...BAR_OPTIONS,
    format: `{projector} {bar} {value}/{total} events | {eta_formatted} left{by}`,
  });
  const byProjector = new Map<string, SingleBar>();
  try {
    await projections.catchUp(undefined, {
      timeoutMs: 10 * 60_000,
      onProgress: ({ projector, done, total, following }) => {
        // A running server (or worker) applying the events itself: this command only watches.
        const by = following ? " | applied by another process" : "";
        const bar = byProjector.get(projector);
        if (bar) bar.update(done, { by });
        else byProjector.set(projector, bars.create(total, done, { projector: projector.padEnd(WIDEST), by }));
      },
    });
  } finally {
    bars.stop();
  }
}

const WIDEST = Math.max(...projectors.map((p) => p.name.length));
