import type { Sql } from "../../src/db/database.js";
import { openEventStore } from "../../src/event-store/open.js";
import type { EventStore, Position } from "../../src/event-store/port.js";
import type { Projector } from "../../src/projections/projector.js";
import { projectors } from "../../src/projections/registry.js";
import { ProjectionRunner } from "../../src/projections/runner.js";
import { catalogue } from "../../streams/index.js";
import type { Buildable, StreamEvent } from "./cricket-builders.js";

/**
 * A database given cricket: builders' events are appended through the real event store and
 * the real projectors caught up, so tests read exactly what the service would serve.
 */
export class CricketWorld {
  readonly store: EventStore;
  readonly runner: ProjectionRunner;
  private readonly appended = new Set<string>();

  constructor(
    readonly sql: Sql,
    readonly projectorsUnderTest: readonly Projector[] = projectors,
  ) {
    this.store = openEventStore({ eventStoreUrl: undefined }, sql);
    this.runner = new ProjectionRunner(sql, this.store, projectorsUnderTest, { batchSize: 500 });
  }

  /** Appends every builder's events not appended yet, then catches the projectors up. */
  async given(...things: Buildable[]): Promise<void> {
    await this.append(things.flatMap((t) => t.events()));
  }

  /** Appends events (each once, consecutive events of a stream together) and catches up. */
  async append(events: readonly StreamEvent[]): Promise<void> {
    let last: Position | undefined;
    const fresh = events.filter((e) => !this.appended.has(e.id));
    for (let start = 0; start < fresh.length; ) {
      const stream = (fresh[start] as StreamEvent).stream;
      let end = start + 1;
      while (end < fresh.length && fresh[end]?.stream === stream) end++;
      const batch = fresh.slice(start, end);
      for (let at = 0; at < batch.length; at += 1000) {
        const chunk = batch.slice(at, at + 1000);
        ({ position: last } = await this.store.append(
          stream,
          chunk.map((e) => ({
            id: e.id,
            type: e.type,
            data: e.data,
            metadata: {
              actor: "test",
              occurredAt: new Date().toISOString(),
              schemaVersion: catalogue.definition(e.type).version,
            },
          })),
          "any",
        ));
      }
      for (const e of batch) this.appended.add(e.id);
      start = end;
    }
    await this.catchUp(last);
  }

  /**
   * Catches every projector up to at least `position`. On a shared PostgreSQL server another
   * session's open transaction holds catch-up readers back (they read only below the oldest
   * running transaction), so one catch-up pass may stop short: try again until reached.
   */
  async catchUp(position?: Position): Promise<void> {
    const names = this.projectorsUnderTest.map((p) => p.name);
    const deadline = Date.now() + 20_000;
    for (;;) {
      await this.runner.catchUp();
      if (!position || (await this.runner.waitFor(names, position, 0))) return;
      if (Date.now() > deadline) throw new Error("projectors did not reach the appended events within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
