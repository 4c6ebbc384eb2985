-- Values Postgres compresses (an append's events, a fixture's revisions or deliveries in the
-- read models) are compressed with LZ4 where the server has it: it looks back 64 kB for a
-- repeat where the default (pglz) looks back 4 kB, so a fixture's value, which repeats its
-- players and keys throughout, shrinks further (the delivery history of the full IPL: 64 →
-- 48 MB), and it decompresses several times faster. Sessions opened after this one use it;
-- values already written keep theirs. The embedded database's build has no LZ4: it keeps pglz.
do $$
begin
  execute format('alter database %I set default_toast_compression = lz4', current_database());
exception when invalid_parameter_value or insufficient_privilege then
  raise notice 'LZ4 compression is not set (%): values stay compressed with pglz', sqlerrm;
end
$$;
