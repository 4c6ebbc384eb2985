import { defineConfig } from "vitest/config";

const shared = {
  globalSetup: ["test/support/global-setup.ts"],
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

export default defineConfig({
  test: {
    projects: [
      { test: { ...shared, name: "main", include: ["test/**/*.test.ts"] } },
      // With a real Postgres given (CI), the single-database suites run again on embedded
      // PGlite, so the HTTP surface is proven on both stores the service runs on. The CLI
      // suites need no second run: they always start embedded processes. Nor does the fuzz,
      // whose 10,000 requests a run take minutes: it runs on PGlite wherever no Postgres is
      // given, and FUZZ_SEED repeats a Postgres run's requests there (docs/http.md).
      ...(process.env.DATABASE_URL
        ? [
            {
              test: {
                ...shared,
                name: "embedded",
                include: SINGLE_DATABASE,
                exclude: ["test/cli/**", "test/resilience/openapi-fuzz.e2e.test.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
