-- Trigram indexes (pg_trgm, a trusted contrib extension on Postgres 13+, bundled with PGlite)
-- serve the name filters of the reference lists: a substring search then reads the few
-- names that hold the pattern's trigrams instead of every name (docs/read-api.md).
create extension if not exists pg_trgm with schema public;
