import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aFixture, aSeason, aTeam, type FixtureBuilder } from "../support/cricket-builders.js";
import { everyPage, openReadApi, type ReadApi } from "../support/read-api.js";

type Served = { fixtureId: string; startDate: string; participation: Record<string, unknown> };

const season = aSeason(undefined, { label: "2023" });
const [kkr, srh, mi, csk] = ["Kolkata", "Hyderabad", "Mumbai", "Chennai"].map((name) => aTeam({ name }));
// Named in Kolkata's squads (its tail, who never reaches the crease here).
const player = kkr?.players[10];
const named = [1, 3, 5, 7].map((d) => aFixture({ season, home: kkr, away: srh, startDate: `2023-04-0${d}` }));
// In one, the player also bowls: Kolkata fields second, and its fifth over is the tail's.
named[1]?.withInnings({ deliveries: 6 }).withInnings({ deliveries: 30 });
// The player fields as a substitute in two fixtures of other sides, without being named in them.
// One of them on the day of a fixture they were named for: the id orders the two.
const fielded = [2, 5].map((d) =>
  aFixture({ season, home: mi, away: csk, startDate: `2023-04-0${d}` }).withInnings({
    deliveries: 6,
    override: (n, state) =>
      n === 3
        ? {
            runs: { offBat: 0, extras: 0, total: 0 },
            wickets: [
              {
                kind: "caught",
                playerOutId: state.strikerId,
                fielders: [{ participantId: player?.id as string, substitute: true }],
              },
            ],
          }
        : {},
  }),
);
// One they took no part in.
const elsewhere = aFixture({ season, home: mi, away: csk, startDate: "2023-04-04" });

const idsInOrder = (list: { fixture: FixtureBuilder; date: string }[]) =>
  [...list]
    .sort((a, b) => a.date.localeCompare(b.date) || (a.fixture.id < b.fixture.id ? -1 : 1))
    .map((f) => f.fixture.id);

let r: ReadApi;
beforeAll(async () => {
  r = await openReadApi();
  await r.world.given(...named, ...fielded, elsewhere);
});
afterAll(() => r.close());

describe("a participant's fixtures, named and not", () => {
  it("pages the fixtures a participant was named for and those they only appeared in, in date order both ways", async () => {
    const expected = idsInOrder([...named, ...fielded].map((fixture) => ({ fixture, date: fixture.startDate })));
    for (const limit of [1, 2, 4, 50]) {
      const served = await everyPage<Served>(r.api, `/api/v1/participants/${player?.id}/fixtures`, limit);
      expect(served.map((f) => f.fixtureId)).toEqual(expected);
      const backwards = await everyPage<Served>(
        r.api,
        `/api/v1/participants/${player?.id}/fixtures?sort=-startDate`,
        limit,
      );
      expect(backwards.map((f) => f.fixtureId)).toEqual([...expected].reverse());
    }
    const served = await everyPage<Served>(r.api, `/api/v1/participants/${player?.id}/fixtures`, 3);
    for (const f of served)
      expect(f.participation).toEqual(
        fielded.some((x) => x.id === f.fixtureId)
          ? { competitor: null, inSquad: false, appeared: true }
          : {
              competitor: { competitorId: kkr?.id, name: "Kolkata" },
              inSquad: true,
              appeared: f.fixtureId === named[1]?.id,
            },
      );
  });

  it("follows a fixture scheduled again on another date", async () => {
    const [moved, stays] = [named[0], fielded[0]] as [FixtureBuilder, FixtureBuilder];
    await r.world.append([...moved.scheduledAgain("2023-04-09"), ...stays.scheduledAgain("2023-04-08")]);
    const expected = idsInOrder([
      ...named.map((fixture) => ({ fixture, date: fixture === moved ? "2023-04-09" : fixture.startDate })),
      ...fielded.map((fixture) => ({ fixture, date: fixture === stays ? "2023-04-08" : fixture.startDate })),
    ]);
    const served = await everyPage<Served>(r.api, `/api/v1/participants/${player?.id}/fixtures`, 2);
    expect(served.map((f) => [f.fixtureId, f.startDate])).toEqual(
      expected.map((id) => [
        id,
        id === moved.id
          ? "2023-04-09"
          : id === stays.id
            ? "2023-04-08"
            : [...named, ...fielded].find((f) => f.id === id)?.startDate,
      ]),
    );
  });
});

describe("a read reaching a read model's older tables", () => {
  it("answers 503 NOT_READY while the active generation is older than the code, and 500 otherwise", async () => {
    // What an upgrade meets until the fixtures' version 2 switches in: version 1's squads, without start dates.
    const [active] = await r.db.sql<{ schema_name: string; version: number }[]>`
      select schema_name, version from projector_generations where projector = 'fixtures' and state = 'active'`;
    const squads = (columns: string) =>
      r.db.sql.unsafe(`drop view squad_member;
        create view squad_member as select ${columns} from ${active?.schema_name}.squad_member`);
    const activeVersion = (version: number) =>
      r.db.sql`update projector_generations set version = ${version} where projector = 'fixtures' and state = 'active'`;
    const path = `/api/v1/participants/${player?.id}/fixtures`;
    await squads("fixture_id, competitor_id, participant_id, position");
    try {
      await activeVersion(1);
      const upgrading = await r.api.get(path);
      expect(upgrading.status).toBe(503);
      expect(upgrading.body).toMatchObject({ error: { code: "NOT_READY" } });
      expect(upgrading.headers.get("Retry-After")).toMatch(/^\d+$/);

      await activeVersion(active?.version as number);
      const fault = await r.api.get(path);
      expect(fault.status).toBe(500);
      expect(fault.body).toMatchObject({ error: { code: "INTERNAL_SERVER_ERROR" } });
    } finally {
      await activeVersion(active?.version as number);
      await squads("*");
    }
    expect((await r.api.get(path)).status).toBe(200);
  });
});
