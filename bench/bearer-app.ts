import { randomUUID } from "node:crypto";
import { memoryCache } from "../src/cache/memory.js";
import { bootstrapAdmin, ensureAccount } from "../src/commands/accounts/handlers.js";
import type { Sql } from "../src/db/database.js";
import { createApp } from "../src/http/app.js";
import { createLogger } from "../src/http/logging.js";
import { apiRoutes } from "../src/http/routes.js";
import { memoryWindowCounter } from "../src/limits/memory.js";
import type { CricketWorld } from "../test/support/cricket-world.js";
import { developmentIdentity } from "../test/support/dev-identity.js";

/**
 * The real app over a benchmark's world, as the embedded default runs it (the development
 * issuer, in-process cache and counters), and bearer tokens of administrators to call it with.
 */
export async function bearerApp(sql: Sql, world: CricketWorld, dataDir: string) {
  const identity = await developmentIdentity(dataDir);
  const issuer = identity.devIssuer;
  if (!issuer) throw new Error("the development issuer is required");
  const app = createApp(
    {
      logger: createLogger("silent"),
      sql,
      cache: memoryCache(),
      identity,
      store: world.store,
      projections: world.runner,
      rateLimits: memoryWindowCounter(),
      // Counted as for anyone, but a run sends more packages a minute than an account may.
      limits: { batchesPerMinute: 1_000_000 },
    },
    apiRoutes,
  );
  /** A new administrator's bearer token. */
  const anAdminToken = async () => {
    const subject = `bench-admin-${randomUUID()}`;
    await ensureAccount(world.store, { subject, displayName: subject }, { now: new Date() });
    await bootstrapAdmin(world.store, subject, { now: new Date() });
    return issuer.issueToken({ subject });
  };
  return { app, anAdminToken };
}
