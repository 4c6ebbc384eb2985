-- Projector bookkeeping. Each projector builds its read model in a schema of its own per
-- generation; public views point at the active generation, so a rebuild fills a fresh
-- schema while readers keep using the old one, and the switch is one transaction.
create table projector_generations (
  projector text not null,
  generation integer not null,
  version integer not null,
  schema_name text not null unique,
  state text not null check (state in ('building', 'active', 'retired')),
  checkpoint_commit bigint not null default 0,
  checkpoint_index bigint not null default 0,
  events_applied bigint not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  activated_at timestamptz,
  primary key (projector, generation)
);
create unique index projector_one_active on projector_generations (projector) where state = 'active';
create unique index projector_one_building on projector_generations (projector) where state = 'building';
alter table projector_generations add column last_error text;
