import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: "forks" as const,
};

/**
 * Suites that open one database (`openTestDatabase`: real Postgres when given, else PGlite).
 * The other database suites run every backend themselves (`backends()`).
 */
const SINGLE_DATABASE = [
  "test/**/*.e2e.test.ts",
  "test/commands/handle.int.test.ts",
  "test/ingest/*.int.test.ts",
  "test/projections/statistics.int.test.ts",
];

/**
 * Suites that run alone, after the rest. Some bound a wall-clock time at a few seconds or
 * less (a frozen Redis refused within 600 ms, a stop within a second, the event loop's
 * longest delay, a minute's requests within the minute), which another file beside them on
 * a 2-core machine can take. The others read the log on Postgres straight after appending to
 * it, and a reader sees only what committed before the oldest transaction still running
 * anywhere on the server (docs/event-store.md): another file's `create database` holds that
 * back for a second or more. Each embedded PGlite is a server of its own.
 */
const TIMED_SINGLE_DATABASE = [
  "test/access/shared-limits.e2e.test.ts",
  "test/access/keyed-limits.e2e.test.ts",
  "test/submission-api/submission-limits.e2e.test.ts",
  "test/resilience/database-outage.e2e.test.ts",
  "test/weather-api/weather.e2e.test.ts",
];
const ALONE = [
  ...TIMED_SINGLE_DATABASE,
  "test/cli/server.e2e.test.ts",
  "test/cli/cli.e2e.test.ts",
  "test/db/embedded-thread.int.test.ts",
  "test/limits/redis.int.test.ts",
  "test/projections/runner.int.test.ts",
  "test/weather/provider.int.test.ts",
  "test/identity/*.int.test.ts",
  // readers of the log on Postgres
  "test/batch-api/intake.e2e.test.ts",
  "test/submission-api/corrections.e2e.test.ts",
  "test/ingest/cricsheet-import.int.test.ts",
  "test/projections/tail.int.test.ts",
  "test/projections/accounts.int.test.ts",
  "test/projections/consumers.int.test.ts",
  "test/event-store/*.int.test.ts",
  "test/personal-data/*.int.test.ts",
];

/**
 * A file per core, and two on a machine of two or fewer: most of a file's time is spent
 * waiting on a database, a browser or a process. Vitest's default (one fewer than the cores)
 * ran the suite file after file on CI's 2-core machine (1,393 s, against 925 s with two).
 * Projects of one group run together; the groups one after another.
 */
const inParallel = { maxWorkers: Math.max(2, availableParallelism()), sequence: { groupOrder: 0 } };
const alone = (groupOrder: number) => ({ maxWorkers: 1, sequence: { groupOrder } });

/** Every suite, on a real Postgres where one is given (test/support/global-setup.ts). */
const main = { ...shared, globalSetup: ["test/support/global-setup.ts"], include: ["test/**/*.test.ts"] };
/**
 * With a real Postgres given (CI), the single-database suites run again on embedded PGlite
 * (no setup provides them a server), so the HTTP surface is proven on both stores the
 * service runs on. The CLI suites need no second run: they always start embedded processes.
 * Nor does the fuzz, whose 10,000 requests a run take minutes: it runs on PGlite wherever no
 * Postgres is given, and FUZZ_SEED repeats a Postgres run's requests there (docs/http.md).
 */
const embedded = {
  ...shared,
  include: SINGLE_DATABASE,
  exclude: ["test/cli/**", "test/resilience/openapi-fuzz.e2e.test.ts"],
};

export default defineConfig({
  test: {
    projects: [
      { test: { ...main, ...inParallel, name: "main", exclude: ALONE } },
      { test: { ...main, ...alone(1), name: "main (alone)", include: ALONE } },
      ...(process.env.DATABASE_URL
        ? [
            {
              test: {
                ...embedded,
                ...inParallel,
                name: "embedded",
                exclude: [...embedded.exclude, ...TIMED_SINGLE_DATABASE],
              },
            },
            { test: { ...embedded, ...alone(2), name: "embedded (alone)", include: TIMED_SINGLE_DATABASE } },
          ]
        : []),
    ],
  },
});
