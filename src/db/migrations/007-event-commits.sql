-- The ledger keeps one row per append (a commit) instead of one per event. An append's events
-- go into one jsonb array, which Postgres compresses once it passes 2 kB: a match's deliveries
-- name the same players, keys and metadata hundreds of times, so the full IPL's 306 MB of
-- event rows become about 40 MB. Nothing about positions changes for events already stored:
-- each keeps its global position (the events of a commit hold consecutive ones from
-- `first_position`), and a new commit's first position is a fresh multiple of 2^20 above
-- every one before, so checkpoints, release positions and retries stay valid.
-- A process of the previous version appending meanwhile waits, then fails on the view: no
-- append commits after the copy below and is dropped with the table.
lock table events in exclusive mode;

create sequence commit_sequence;

create table commits (
  first_position bigint primary key default nextval('commit_sequence') * 1048576,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id text not null,
  first_revision bigint not null,
  event_count integer not null check (event_count between 1 and 1048576),
  last_position bigint generated always as (first_position + event_count - 1) stored,
  -- [{id, type, data, metadata}, …] in revision order
  events jsonb not null,
  recorded_at timestamptz not null default now(),
  unique (stream_id, first_revision)
);
create index commits_catch_up on commits (transaction_id, last_position);

-- Event ids are globally unique (an append is idempotent by them): each id and its position.
create table event_ids (
  event_id uuid primary key,
  position bigint not null
);

-- An append wrote its events in one transaction to one stream with consecutive revisions; a
-- concurrent append could take positions in between, so a commit is a run of consecutive
-- positions (and revisions) of one stream in one transaction.
insert into commits (first_position, transaction_id, stream_id, first_revision, event_count, events, recorded_at)
select min(global_position), transaction_id, stream_id, min(stream_revision), count(*),
       jsonb_agg(jsonb_build_object('id', event_id, 'type', event_type, 'data', data, 'metadata', metadata)
                 order by global_position),
       min(recorded_at)
from (
  select e.*, global_position - row_number() over run as position_run, stream_revision - row_number() over run as revision_run
  from events e
  window run as (partition by transaction_id, stream_id order by global_position)
) numbered
group by transaction_id, stream_id, position_run, revision_run;

insert into event_ids (event_id, position) select event_id, global_position from events;

select setval('commit_sequence', coalesce((select max(global_position) from events) / 1048576, 0) + 1, false);

drop table events;

-- Every event as a row, as the table was: for reading by hand, tests and the one rewrite
-- (erasure, src/personal-data/existing-events.ts), which writes to `commits`.
create view events as
select c.first_position + e.ordinality - 1 as global_position, c.transaction_id, c.stream_id,
       c.first_revision + e.ordinality - 1 as stream_revision, (e.event ->> 'id')::uuid as event_id,
       e.event ->> 'type' as event_type, e.event -> 'data' as data, e.event -> 'metadata' as metadata,
       c.recorded_at
from commits c cross join lateral jsonb_array_elements(c.events) with ordinality as e (event, ordinality);
