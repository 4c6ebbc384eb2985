import { defineProjector } from "../../src/projections/projector.js";

/**
 * A deliberately non-idempotent read model: every SomethingHappened adds to a running
 * total, so applying an event twice (or not at all) shows up in the numbers.
 */
export const countingProjector = ({ version = 1, delayMs = 0 } = {}) =>
  defineProjector({
    name: "test_counts",
    version,
    description: "test: events and value totals per stream",
    tables: ["test_count"],
    ddl: "create table test_count (stream_id text primary key, events int not null, total bigint not null)",
    // SomethingHappened is a test's type, not the catalogue's, so it is picked out of every event.
    onEvery: async (tx, events) => {
      for (const event of events) {
        if (event.type !== "SomethingHappened") continue;
        if (delayMs) await tx`select pg_sleep(${delayMs / 1000})`;
        const value = (event.data as { value?: number }).value ?? 0;
        await tx`insert into test_count (stream_id, events, total) values (${event.streamId}, 1, ${value})
                   on conflict (stream_id) do update
                   set events = test_count.events + 1, total = test_count.total + excluded.total`;
      }
    },
  });
