import { isDatabaseUnavailable } from "../../db/availability.js";
import { within } from "../../deadline.js";
import { comparePositions } from "../../event-store/port.js";
import type { AppDependencies } from "../../http/app.js";
import { listGenerations } from "../../projections/generations.js";

type Check = { status: "up" | "down" | "not used"; error?: string };
export type Readiness = {
  database: Check & { latencyMs: number | null };
  redis: Check;
  projectors: { name: string; caughtUp: boolean; lagSeconds: number | null }[];
};

/** How long a dependency that is asked directly has to answer. */
const ANSWER_WITHIN_MS = 1000;

/** What an instance depends on, as it stands now. */
export async function readiness(deps: AppDependencies): Promise<Readiness> {
  const [database, redis] = await Promise.all([databaseCheck(deps), redisCheck(deps)]);
  if (database.status !== "up") return { database, redis, projectors: [] };
  try {
    return { database, redis, projectors: await projectorLag(deps) };
  } catch (error) {
    // Gone since the watch last looked.
    if (!isDatabaseUnavailable(error)) throw error;
    return { database: { status: "down", latencyMs: null, error: (error as Error).message }, redis, projectors: [] };
  }
}

async function databaseCheck({ database, sql }: AppDependencies): Promise<Readiness["database"]> {
  if (database) {
    const { up, latencyMs, error } = database.state;
    return up ? { status: "up", latencyMs: latencyMs ?? null } : { status: "down", latencyMs: null, error };
  }
  if (!sql) return { status: "not used", latencyMs: null };
  const started = performance.now();
  try {
    await within(ANSWER_WITHIN_MS, "The database", () => sql`select 1`.execute());
    return { status: "up", latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: "down", latencyMs: null, error: (error as Error).message };
  }
}

async function redisCheck({ rateLimits }: AppDependencies): Promise<Check> {
  if (rateLimits?.kind !== "redis") return { status: "not used" };
  try {
    await rateLimits.ping();
    return { status: "up" };
  } catch (error) {
    return { status: "down", error: (error as Error).message };
  }
}

/**
 * Each active read model's distance from the log's head, in the age of its oldest event not
 * yet projected: whichever process runs the projectors, their checkpoints are in the database.
 */
async function projectorLag({ sql, store }: AppDependencies): Promise<Readiness["projectors"]> {
  if (!sql || !store) return [];
  const [generations, head] = await Promise.all([listGenerations(sql), store.head()]);
  const now = Date.now();
  return Promise.all(
    generations
      .filter((g) => g.state === "active")
      .map(async (g) => {
        if (comparePositions(g.checkpoint, head) >= 0) return { name: g.projector, caughtUp: true, lagSeconds: null };
        const [next] = await store.readAll(g.checkpoint, 1);
        const lagSeconds = next ? Math.max(0, Math.round((now - next.recordedAt.getTime()) / 100) / 10) : 0;
        return { name: g.projector, caughtUp: false, lagSeconds };
      }),
  );
}
