import { categoryOf } from "../../streams/envelope.js";
import { defineProjector } from "./projector.js";

/**
 * The current revision of every stream. For a fixture stream this is the per-fixture
 * version that fixture-scoped responses carry as a field and an ETag.
 */
export const streamVersions = defineProjector({
  name: "stream_versions",
  version: 1,
  description: "Current revision and last event of every stream (per-fixture version stamps).",
  tables: ["stream_version"],
  ddl: `
    create table stream_version (
      stream_id text primary key,
      category text not null,
      revision bigint not null,
      last_event_type text not null,
      updated_at timestamptz not null
    );
    create index stream_version_category on stream_version (category, stream_id);`,
  onEvery: (tx, events) => {
    // One row per stream: the last event of each stream in the batch wins.
    const latest = new Map(events.map((e) => [e.streamId, e]));
    const rows = [...latest.values()].map((e) => ({
      stream_id: e.streamId,
      category: categoryOf(e.streamId),
      revision: e.revision,
      last_event_type: e.type,
      updated_at: e.recordedAt,
    }));
    return tx`
      insert into stream_version ${tx(rows)}
      on conflict (stream_id) do update
        set revision = excluded.revision, last_event_type = excluded.last_event_type, updated_at = excluded.updated_at
        where stream_version.revision < excluded.revision`;
  },
});
