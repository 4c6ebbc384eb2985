/*
 * The settings of every connection to the database, apart from the modules that open one:
 * a release generation's thread (src/releases/generation-thread.ts) connects without
 * loading the embedded database's code.
 */

/** Longest a statement may run unless its transaction lifts the bound (projector batches, migrations). */
export const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Custom plans for every execution: postgres.js prepares statements, and a generic plan
 * chosen while a table was empty (a fresh database, an import just starting) would keep
 * scanning it sequentially after it has grown to millions of rows. Without JIT: every
 * statement here touches one fixture's rows or one batch's, yet once the delivery table held
 * two IPLs the estimates of an innings-totals update crossed `jit_above_cost`, and compiling
 * it took 12 ms of a statement that runs in under 1 (the import of the second IPL took
 * twice as long as the first). Without parallel workers, for the same reason: the same
 * estimates turned a batch's read of its fixtures' deliveries into a parallel scan whose
 * workers cost more to start than the few thousand rows cost to read. A server that accepts
 * a connection but never completes it (a hung host) is given up on after 5 s, not 30.
 */
export const connectionOptions = {
  onnotice: () => {},
  connect_timeout: 5,
  connection: {
    plan_cache_mode: "force_custom_plan",
    statement_timeout: STATEMENT_TIMEOUT_MS,
    jit: "off",
    max_parallel_workers_per_gather: "0",
  },
};

/**
 * The read pool's sessions keep one generic plan per statement: a read's plan shape does not
 * depend on its values (keys, keysets, limits), and planning a fixture page's five-table join
 * on every execution cost three times running it. A generic plan made while a table was small
 * is made again once the grown table is analysed (autovacuum's analyse, or an ANALYZE after
 * a bulk load, invalidates the cached plans that use it). JIT is off here too: a page whose
 * estimate crossed `jit_above_cost` took 22 ms instead of 1. The embedded database has one
 * session for every connection and ignores these settings: it plans as Postgres does by
 * default (and its build has no JIT).
 */
export const readOptions = {
  ...connectionOptions,
  connection: { ...connectionOptions.connection, plan_cache_mode: "force_generic_plan" },
};
