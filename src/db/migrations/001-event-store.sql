-- The event store of the postgres adapter: one append-only table for every stream.
-- transaction_id lets catch-up readers wait for slower transactions that took a lower
-- global_position: they read only below pg_snapshot_xmin and order by (transaction_id,
-- global_position), so no committed event is ever skipped.
create table events (
  global_position bigint generated always as identity primary key,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  stream_revision bigint not null,
  event_id uuid not null unique,
  event_type text not null,
  data jsonb not null,
  metadata jsonb not null,
  recorded_at timestamptz not null default now(),
  unique (stream_id, stream_revision)
);
create index events_catch_up on events (transaction_id, global_position);

-- One row per stream holding its current revision: the row lock is what makes the expected
-- revision check atomic.
create table streams (
  stream_id text primary key,
  revision bigint not null
);
