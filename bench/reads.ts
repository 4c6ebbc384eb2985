import { fileURLToPath } from "node:url";
import type { Sql } from "../src/db/database.js";
import { PostgresEventStore } from "../src/event-store/postgres.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { importCricsheet } from "../src/ingest/cricsheet/import.js";
import { projectors } from "../src/projections/registry.js";
import { ProjectionRunner } from "../src/projections/runner.js";
import { againstHealth, listen } from "./http.js";
import { log, onEachDatabase, type Result } from "./support.js";

/** IPL 2016: 60 matches, about 14,700 deliveries. */
const SEASON = Array.from({ length: 60 }, (_, i) =>
  fileURLToPath(new URL(`../../shared/data/cricsheet/ipl/${980901 + 2 * i}.json`, import.meta.url)),
);

/** The public reads under load against the health route of the same app, on a season of real data. */
export const readsBenchmark = (): Promise<Result[]> => onEachDatabase(measureReads);

async function measureReads(sql: Sql, backend: string): Promise<Result[]> {
  log(`reads: ${backend}: importing IPL 2016`);
  const store = new PostgresEventStore(sql);
  await importCricsheet(store, SEASON);
  await new ProjectionRunner(sql, store, projectors).catchUp();
  const [fixture] = await sql<{ fixture_id: string }[]>`select fixture_id from fixture order by start_date limit 1`;
  const app = createApp({ logger: createLogger("silent"), sql }, apiRoutes);
  const server = await listen(app.fetch, "");
  const routes = [
    {
      label: "GET /api/v1/fixtures/{id}/events?limit=100",
      path: `/api/v1/fixtures/${fixture?.fixture_id}/events?limit=100`,
    },
    { label: "GET /api/v1/fixtures", path: "/api/v1/fixtures" },
  ];
  try {
    const results: Result[] = [];
    for (const route of routes) {
      results.push(await againstHealth("reads", backend, route.label, `${server.url}${route.path}`, server.url));
    }
    return results;
  } finally {
    await server.close();
  }
}
