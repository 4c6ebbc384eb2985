import { BatchValidator } from "./batches/validator.js";
import type { Settings } from "./config.js";
import { type Database, openDatabase } from "./db/database.js";
import { openEventStore } from "./event-store/open.js";
import type { EventStore } from "./event-store/port.js";
import { createLogger, type Logger } from "./http/logging.js";
import { sealExistingEvents } from "./personal-data/existing-events.js";
import { projectors } from "./projections/registry.js";
import { ProjectionRunner } from "./projections/runner.js";
import { ReleaseGenerator } from "./releases/generator.js";

/**
 * What every entry point (server, worker, CLI) stands on: database, event store, projectors,
 * and the batch validator and release generator, which run wherever the projectors run.
 */
export type Runtime = {
  settings: Settings;
  logger: Logger;
  db: Database;
  store: EventStore;
  projections: ProjectionRunner;
  validator: BatchValidator;
  releases: ReleaseGenerator;
  /** Starts the projectors, the batch validator and the release generator. */
  startWorkers(): void;
  close(): Promise<void>;
};

export async function openRuntime(settings: Settings, logger = createLogger(settings.logLevel)): Promise<Runtime> {
  const db = await openDatabase(settings);
  const store = openEventStore(settings, db.sql);
  // Before any projector reads them: no plain personal data stays in the ledger.
  if (store.adapter === "postgres") {
    const report = await sealExistingEvents(db.sql);
    if (report.sealed + report.erased + report.keysDestroyed > 0)
      logger.info(report, "sealed the personal data of existing events");
  }
  const projections = new ProjectionRunner(db.sql, store, projectors, {
    onError: (projector, err) => logger.error({ projector, err }, "projector failed; retrying"),
  });
  await projections.prepare();
  const validator = new BatchValidator({ sql: db.sql, store, logger });
  const releases = new ReleaseGenerator({
    sql: db.sql,
    store,
    logger,
    projections,
    databaseUrl: db.url,
    eventStoreUrl: settings.eventStoreUrl,
  });
  return {
    settings,
    logger,
    db,
    store,
    projections,
    validator,
    releases,
    startWorkers() {
      projections.start();
      validator.start(projections);
      releases.start();
    },
    async close() {
      await releases.stop();
      await validator.stop();
      await projections.stop();
      await store.close();
      await db.close();
    },
  };
}
