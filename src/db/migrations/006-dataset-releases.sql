-- The artefacts of dataset releases (src/releases/artifact-store.ts): bytes, not a read model,
-- so a projection rebuild never drops them. A generation writes its chunks under its job id,
-- then seals them: the row naming the checksum of the whole, the digest of the chunks'
-- digests in order, and the scope, written once every chunk is stored. A release names the
-- job whose sealed artefact it is. Neither table is ever updated, deleted from or truncated
-- (the triggers refuse it): a published artefact cannot change.
create table release_artifact_chunks (
  job_id uuid not null,
  ordinal integer not null,
  -- SHA-256 of `bytes`, hex: checked before the chunk is served
  sha256 text not null,
  bytes bytea not null,
  primary key (job_id, ordinal)
);

create table release_artifacts (
  job_id uuid primary key,
  version text not null,
  sha256 text not null,
  byte_length bigint not null,
  -- every chunk holds exactly this many bytes, but the last
  chunk_size integer not null,
  chunk_count integer not null,
  -- SHA-256 of the chunks' hex digests in order: what a range is checked against
  chunks_sha256 text not null,
  scope jsonb not null,
  sealed_at timestamptz not null default now()
);

create function refuse_release_artifact_change() returns trigger language plpgsql as $$
begin
  raise exception 'dataset release artefacts are immutable (%)', tg_table_name;
end
$$;

create trigger release_artifact_chunks_immutable before update or delete on release_artifact_chunks
  for each row execute function refuse_release_artifact_change();
create trigger release_artifact_chunks_kept before truncate on release_artifact_chunks
  for each statement execute function refuse_release_artifact_change();
create trigger release_artifacts_immutable before update or delete on release_artifacts
  for each row execute function refuse_release_artifact_change();
create trigger release_artifacts_kept before truncate on release_artifacts
  for each statement execute function refuse_release_artifact_change();
