import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadModelWatch } from "../../src/projections/watch.js";
import { testApp } from "../support/app.js";
import { contractClient } from "../support/contract.js";
import { aCompetition, aFixture } from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { openTestDatabase, type TestDatabase } from "../support/databases.js";
import { anEvent, uniqueStream } from "../support/events.js";

/**
 * Public answers kept in the process while the read models they were read from stand still
 * (src/http/kept-answers.ts). A row changed behind the projector's back is what shows
 * whether an answer was kept or read again.
 */
let db: TestDatabase;
let world: CricketWorld;
let watch: ReadModelWatch;
let api: ReturnType<typeof contractClient>;

beforeAll(async () => {
  db = await openTestDatabase();
  world = new CricketWorld(db.sql);
  await world.catchUp();
  watch = new ReadModelWatch(db.sql, { pollMs: 60_000 }); // only the runner can tell it
  watch.follow(world.runner);
  await watch.start();
  api = contractClient(testApp(undefined, { sql: db.sql, watch }).app);
});
afterAll(async () => {
  watch?.close();
  await db?.close();
});

const nameOf = async (competitionId: string) => {
  const res = await api.get(`/api/v1/competitions/${competitionId}`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: { name: string } }).data.name;
};

describe("kept answers", () => {
  it("answer a repeat from memory until a read model they were read from changes, whatever changes elsewhere", async () => {
    const league = aCompetition({ name: "Alpha League" });
    await world.given(league);
    expect(await nameOf(league.id)).toBe("Alpha League");
    await db.sql`update competition set name = 'Renamed behind the projector' where competition_id = ${league.id}`;

    expect(await nameOf(league.id)).toBe("Alpha League");
    // An event only `stream_versions` handles: competitions are not read from it.
    const { position } = await world.store.append(uniqueStream(), [anEvent()], "any");
    await world.catchUp(position);
    expect(await nameOf(league.id)).toBe("Alpha League");

    await world.given(aCompetition({ name: "Beta League" })); // reference data changes
    expect(await nameOf(league.id)).toBe("Renamed behind the projector");
  });

  it("keep the ETag: a kept versioned answer is 304 for its tag and 200 with the same bytes otherwise", async () => {
    const fixture = aFixture().withInnings({ deliveries: 12 });
    await world.given(fixture);
    const path = `/api/v1/fixtures/${fixture.id}/events?limit=5`;
    const first = await api.get(path);
    expect(first.status, first.text).toBe(200);
    const etag = first.headers.get("etag") as string;

    const again = await api.get(path);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("no-cache");
    const revalidated = await api.get(path, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(revalidated.text).toBe("");
  });

  it("say HIT where the route reports its cache", async () => {
    const fixture = aFixture().withInnings({ deliveries: 12 });
    await world.given(fixture);
    const path = `/api/v1/statistics/leaderboards?scope=season&seasonId=${fixture.season.id}&metric=most_runs`;
    const first = await api.get(path);
    expect(first.status, first.text).toBe(200);
    const again = await api.get(path);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect(again.text).toBe(first.text);

    // What the route never caches is not kept either: contributors are read every time.
    const traced = `/api/v1/fixtures/${fixture.id}/statistics?includeContributors=true`;
    expect((await api.get(traced)).headers.get("x-cache")).toBe("BYPASS");
    expect((await api.get(traced)).headers.get("x-cache")).toBe("BYPASS");
  });

  it("serve a leaderboard from tables that keep no version (an older generation while a rebuild runs), uncached", async () => {
    const fixture = aFixture().withInnings({ deliveries: 12 });
    await world.given(fixture);
    const [active] = await db.sql<{ schema_name: string }[]>`
      select schema_name from projector_generations where projector = 'statistics' and state = 'active'`;
    const table = `${active?.schema_name}.leaderboard`;
    const unversioned = contractClient(testApp(undefined, { sql: db.sql }).app);
    await db.sql.unsafe(`drop view public.leaderboard; alter table ${table} drop column version;
                         create view public.leaderboard as select * from ${table}`);
    try {
      const path = `/api/v1/statistics/leaderboards?scope=season&seasonId=${fixture.season.id}&metric=most_runs`;
      const res = await unversioned.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("x-cache")).toBe("BYPASS");
      expect((res.body as { data: unknown[] }).data.length).toBeGreaterThan(0);
    } finally {
      await db.sql.unsafe(`drop view public.leaderboard;
        alter table ${table} add column version bigint not null default pg_current_xact_id()::text::bigint;
        create view public.leaderboard as select * from ${table}`);
    }
  });

  it("still admit every request: the anonymous limits count kept answers", async () => {
    const limited = contractClient(
      testApp(undefined, { sql: db.sql, watch, anonymousLimits: { perSourcePerMinute: 2, platformPerMinute: 100 } })
        .app,
    );
    expect((await limited.get("/api/v1/competitions")).status).toBe(200);
    expect((await limited.get("/api/v1/competitions")).status).toBe(200);
    expect((await limited.get("/api/v1/competitions")).status).toBe(429);
  });

  it("never fail a read when their store fails: the answer is read and sent, the failure logged", async () => {
    const failing = {
      kind: "redis" as const,
      get: () => Promise.reject(new Error("store down")),
      set: () => Promise.reject(new Error("store down")),
      close: () => Promise.resolve(),
    };
    const { app, logs } = testApp(undefined, { sql: db.sql, watch, answers: failing });
    const league = aCompetition({ name: "Delta League" });
    await world.given(league);
    for (let i = 0; i < 2; i++) {
      const res = await app.request(`/api/v1/competitions/${league.id}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Delta League");
    }
    await new Promise((settled) => setImmediate(settled)); // the copy is offered to the store once the body is sent
    const warnings = logs()
      .filter((line) => line.level === 40)
      .map((line) => line.msg);
    expect(warnings).toContain("reading a kept answer failed; reading the read models");
    expect(warnings).toContain("keeping an answer failed; it was sent");
  });

  it("are not kept without a watch: nothing could tell when they go stale", async () => {
    const unwatched = contractClient(testApp(undefined, { sql: db.sql }).app);
    const league = aCompetition({ name: "Gamma League" });
    await world.given(league);
    expect((await unwatched.get(`/api/v1/competitions/${league.id}`)).text).toContain("Gamma League");
    await db.sql`update competition set name = 'Gamma renamed' where competition_id = ${league.id}`;
    expect((await unwatched.get(`/api/v1/competitions/${league.id}`)).text).toContain("Gamma renamed");
  });
});
