import { CRICSHEET_IMPORT_ACTOR, fixtureCatalogue, fixtureStream } from "../../../streams/fixture.js";
import { parseJson } from "../../bounded-json.js";
import { importFixture } from "../../commands/fixtures/import-fixture.js";
import { handleCommand } from "../../commands/handle.js";
import type { EventStore } from "../../event-store/port.js";
import { mapMatch } from "./map.js";
import { ReferenceRegistrar } from "./register-references.js";
import { cricsheetMatchSchema } from "./schema.js";
import { listSources, type MatchSource } from "./sources.js";

export type MatchOutcome = "imported" | "revised" | "unchanged" | "failed";

export type ImportSummary = {
  matches: number;
  imported: number;
  revised: number;
  unchanged: number;
  failed: { source: string; reason: string }[];
  /** Delivery events written: new deliveries plus corrections. */
  deliveriesWritten: number;
  seconds: number;
};

export type ImportOptions = {
  /** Matches imported at once; each is its own fixture stream, so they do not contend. */
  concurrency?: number;
  onProgress?: (progress: { done: number; total: number; source: string; outcome: MatchOutcome }) => void;
};

/**
 * Imports Cricsheet match files (files, directories, zip archives) through the same command
 * layer the API uses. Idempotent: a file already imported changes nothing; a re-issued file
 * (higher `meta.revision`) becomes corrections of the deliveries that changed.
 */
export async function importCricsheet(
  store: EventStore,
  paths: readonly string[],
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const { sources, close } = await listSources(paths);
  const context = () => ({ actor: CRICSHEET_IMPORT_ACTOR, now: new Date() });
  const registrar = new ReferenceRegistrar(store, context);
  const summary: ImportSummary = {
    matches: sources.length,
    imported: 0,
    revised: 0,
    unchanged: 0,
    failed: [],
    deliveriesWritten: 0,
    seconds: 0,
  };

  async function importOne(source: MatchSource): Promise<MatchOutcome> {
    let json: unknown;
    try {
      json = parseJson(await source.read());
    } catch (error) {
      return fail(source, `not readable JSON: ${(error as Error).message}`);
    }
    const parsed = cricsheetMatchSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(source, `not a Cricsheet match: ${issue?.path.join(".") || "file"}: ${issue?.message}`);
    }
    try {
      const match = mapMatch(source.matchId, parsed.data);
      await registrar.register(match);
      const result = await handleCommand(
        store,
        fixtureCatalogue,
        fixtureStream(match.fixture.scheduled.fixtureId),
        importFixture,
        { content: match.fixture },
        context(),
      );
      summary.deliveriesWritten += result.events.filter(
        (e) => e.type === "DeliveryRecorded" || e.type === "DeliveryCorrected",
      ).length;
      const outcome: MatchOutcome =
        result.events.length === 0
          ? "unchanged"
          : result.events[0]?.type === "FixtureScheduled"
            ? "imported"
            : "revised";
      summary[outcome] += 1;
      return outcome;
    } catch (error) {
      return fail(source, (error as Error).message);
    }
  }

  function fail(source: MatchSource, reason: string): MatchOutcome {
    summary.failed.push({ source: source.source, reason });
    return "failed";
  }

  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let source = sources[next++]; source; source = sources[next++]) {
      const outcome = await importOne(source);
      done += 1;
      options.onProgress?.({ done, total: sources.length, source: source.source, outcome });
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  } finally {
    close();
  }
  // Matches finish in any order; failures are reported in the order the files were given.
  const position = new Map(sources.map((source, i) => [source.source, i]));
  summary.failed.sort((a, b) => (position.get(a.source) ?? 0) - (position.get(b.source) ?? 0));
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}
