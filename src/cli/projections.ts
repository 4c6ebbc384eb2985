import type { Command } from "commander";
import { positionToString } from "../event-store/port.js";
import { listGenerations } from "../projections/generations.js";
import type { Runtime } from "../runtime.js";

type WithRuntime = <T>(work: (runtime: Runtime) => Promise<T>) => Promise<T>;

export function projectionCommands(program: Command, withRuntime: WithRuntime) {
  const projections = program.command("projections").description("inspect, run and rebuild the read-model projectors");

  projections
    .command("status")
    .description("each projector's generations, versions, checkpoints and last error")
    .option("--json", "print JSON instead of a table")
    .action((options: { json?: boolean }) =>
      withRuntime(async ({ db, projections: runner }) => {
        const generations = await listGenerations(db.sql);
        const rows = runner.projectors.flatMap((p) => {
          const own = generations.filter((g) => g.projector === p.name);
          if (own.length === 0) return [{ projector: p.name, codeVersion: p.version, state: "not started" }];
          return own.map((g) => ({
            projector: p.name,
            codeVersion: p.version,
            generation: g.generation,
            version: g.version,
            state: g.state,
            checkpoint: positionToString(g.checkpoint),
            eventsApplied: g.eventsApplied,
            updatedAt: g.updatedAt.toISOString(),
            lastError: g.lastError ?? "",
          }));
        });
        if (options.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        else console.table(rows);
      }),
    );

  projections
    .command("rebuild")
    .argument("<name>", `a projector name, or "all"`)
    .description("replay the whole log into fresh tables while the current ones keep serving, then switch")
    .action((name: string) =>
      withRuntime(async ({ projections: runner }) => {
        const names = name === "all" ? runner.projectors.map((p) => p.name) : [runner.projector(name).name];
        for (const projector of names) {
          const started = performance.now();
          const generation = await runner.rebuild(projector);
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          process.stdout.write(
            `${projector}: generation ${generation.generation} (version ${generation.version}) active after ${seconds}s, ${generation.eventsApplied} events applied\n`,
          );
        }
      }),
    );

  projections
    .command("run")
    .description(
      "run the projectors, the batch validator and the release generator as a worker until interrupted (the API can then run with PROJECTORS=off)",
    )
    .action(() =>
      withRuntime(async (runtime) => {
        runtime.startWorkers();
        runtime.logger.info(
          { projectors: runtime.projections.projectors.map((p) => p.name) },
          "projector worker running, batch validator and release generator too",
        );
        await new Promise<void>((resolve) => {
          process.once("SIGINT", resolve);
          process.once("SIGTERM", resolve);
        });
      }),
    );
}
