import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/database.js";
import { referenceData } from "../../src/projections/reference-data.js";
import { listParticipants } from "../../src/read-api/queries/reference.js";
import { aParticipant } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";

/**
 * Names like five IPLs' people: where the read pool's generic plan, guessing how many match a
 * LIKE, expected a page sooner by walking every name in order than from the trigram index.
 */
const NAMES = 8_000;

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`the name search's plan on ${backend.name}`, () => {
    let db: TestDatabase;
    const kohli = aParticipant({ name: "V Kohli" });
    const vivek = aParticipant({ name: "Vivek Kohli" });
    beforeAll(async () => {
      db = await backend.open();
      await new CricketWorld(db.sql, [referenceData]).given(kohli, vivek);
      const [table] = await db.sql<{ name: string }[]>`
        select format('%I.%I', schemaname, tablename) as name from pg_tables where tablename = 'participant'`;
      // Others registered in bulk (two made-up words and an initial each), half of them analysed
      // (as after an import), half not yet analysed or vacuumed: the state between two vacuums.
      const register = (from: number) =>
        db.sql.unsafe(`
          insert into ${table?.name} (participant_id, name, source_ids, sort_name, search_text)
          select 'other-' || n, w, '{}', w, ' ' || w || E'\\n ~' || left(w, 1)
          from generate_series(${from}, ${from + NAMES / 2 - 1}) n,
            lateral (select translate(substr(md5(n::text), 1, 6), '0123456789', 'ghijklmnop') || ' ' ||
                            translate(substr(md5(n::text), 7, 8), '0123456789', 'qrstuvwxyz') as w) made`);
      await register(0);
      await db.sql.unsafe(`analyze ${table?.name}`);
      await register(NAMES / 2);
    });
    afterAll(() => db.close());

    it("finds a rare name through the trigram index, however many names are registered and not yet vacuumed", async () => {
      const found = await db.reads.begin(async (tx) => {
        await tx`set local plan_cache_mode = force_generic_plan`;
        // In a transaction, whose own index scans the server counts; the query only runs SQL.
        const page = await listParticipants(tx as unknown as Sql, { name: "kohli", direction: "asc", take: 21 });
        const [scans] = await tx<{ n: number }[]>`
          select pg_stat_get_xact_numscans(i.indexrelid)::int as n
          from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'participant_by_search_text'`;
        return { ids: page.map((p) => p.item.participantId), scans: scans?.n };
      });
      expect(found.ids).toEqual([kohli.id, vivek.id]);
      expect(found.scans).toBe(1);
    });
  });
}
