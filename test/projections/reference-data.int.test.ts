import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceData } from "../../src/projections/reference-data.js";
import { venueStream } from "../../streams/venue.js";
import {
  aCompetition,
  aFixture,
  aParticipant,
  aSeason,
  aTeam,
  aVenue,
  dismissalKinds,
} from "../support/cricket-builders.js";
import { CricketWorld } from "../support/cricket-world.js";
import { backends, type TestDatabase } from "../support/databases.js";
import { replayWholeLog, snapshot } from "../support/read-models.js";

for (const backend of backends()) {
  describe.skipIf(!backend.available)(`reference_data read model on ${backend.name}`, () => {
    let db: TestDatabase;
    let world: CricketWorld;
    beforeAll(async () => {
      db = await backend.open();
      world = new CricketWorld(db.sql, [referenceData]);
    });
    afterAll(() => db.close());

    it("keeps every named entity with its other spellings as a set, and a search text of all of them", async () => {
      const competition = aCompetition({ name: "ICC World Twenty20", alternativeNames: ["World T20", "World T20"] });
      const player = aParticipant({ name: "NA Saini", alternativeNames: ["Navdeep Saini", "NA Saini"] });
      const team = aTeam({ name: "Delhi Daredevils", alternativeNames: ["Delhi Capitals"] });
      await world.given(competition, player, team, aVenue({ name: "Wankhede Stadium", city: "Mumbai" }));

      const [c] = await db.sql`select * from competition where competition_id = ${competition.id}`;
      expect(c).toMatchObject({
        name: "ICC World Twenty20",
        alternative_names: ["World T20"],
        source_ids: [`cricsheet:competition:${competition.id}`],
        sort_name: "icc world twenty20",
        search_text: " icc world twenty20\n world t20",
      });
      const [p] =
        await db.sql`select name, alternative_names, search_text from participant where participant_id = ${player.id}`;
      // Each spelling's words after a space; a person's initials as markers (src/names/search-text.ts).
      expect(p).toEqual({
        name: "NA Saini",
        alternative_names: ["Navdeep Saini"],
        search_text: " na saini\n navdeep saini\n ~n ~a",
      });
      const [t] =
        await db.sql`select name, alternative_names, team_type, gender from competitor where competitor_id = ${team.id}`;
      expect(t).toEqual({
        name: "Delhi Daredevils",
        alternative_names: ["Delhi Capitals"],
        team_type: "club",
        gender: "male",
      });
      expect(await db.sql`select count(*)::int as n from participant`).toEqual([{ n: 12 }]);
      const venues = await db.sql`select name, city, latitude from venue`;
      expect(venues).toEqual([{ name: "Wankhede Stadium", city: "Mumbai", latitude: 18.9389 }]);
    });

    it("derives a season's dates, fixture count and display name from its fixtures", async () => {
      const ipl = aCompetition();
      const spanning = aSeason(ipl, { label: "2019/20" });
      const single = aSeason(ipl, { label: "2007/08" });
      const empty = aSeason(ipl, { label: "2030" });
      await world.given(
        aFixture({ season: spanning, startDate: "2019-12-28", endDate: "2019-12-29" }),
        aFixture({ season: spanning, startDate: "2020-01-03", endDate: "2020-01-07" }),
        aFixture({ season: single, startDate: "2008-04-18" }),
        aFixture({ season: single, startDate: "2008-06-01" }),
        empty,
      );
      const seasons = await db.sql`
        select season_id, label, name, start_date::text, end_date::text, fixture_count
        from season where competition_id = ${ipl.id} order by label`;
      expect(seasons).toEqual([
        {
          season_id: single.id,
          label: "2007/08",
          name: "2008",
          start_date: "2008-04-18",
          end_date: "2008-06-01",
          fixture_count: 2,
        },
        {
          season_id: spanning.id,
          label: "2019/20",
          name: "2019/20",
          start_date: "2019-12-28",
          end_date: "2020-01-07",
          fixture_count: 2,
        },
        { season_id: empty.id, label: "2030", name: "2030", start_date: null, end_date: null, fixture_count: 0 },
      ]);
    });

    it("gets the season right when its fixtures come first in the log", async () => {
      const season = aSeason(aCompetition(), { label: "2016" });
      const fixture = aFixture({ season, startDate: "2016-04-09" });
      const registration = season.events().at(-1);
      await world.append(fixture.events().filter((e) => e !== registration));
      await world.append(season.events());
      const [row] = await db.sql`select name, fixture_count from season where season_id = ${season.id}`;
      expect(row).toEqual({ name: "2016", fixture_count: 1 });
    });

    it("lists the dismissal kinds vocabulary once each", async () => {
      await world.given(dismissalKinds("caught", "bowled", "caught"));
      const kinds = await db.sql`select kind from dismissal_kind order by kind`;
      expect(kinds.map((k) => k.kind)).toEqual(["bowled", "caught"]);
    });

    it("renames a venue (the old name another spelling, the coordinates gone) and locates it, in log order", async () => {
      const venue = aVenue({ name: "Feroz Shah Kotla", city: "Delhi" });
      await world.given(venue);
      const at = (type: string, data: object) => ({
        id: randomUUID(),
        stream: venueStream(venue.id),
        type,
        data: { venueId: venue.id, ...data },
      });
      const located = (latitude: number) =>
        at("VenueLocated", {
          latitude,
          longitude: 77.2432,
          source: {
            provider: "open-meteo-geocoding",
            query: "Delhi",
            placeId: 1273294,
            placeName: "Delhi",
            country: "India",
          },
        });
      // One batch: renamed twice, located between and after; only the last location stands.
      await world.append([
        at("VenueRenamed", { name: "Arun Jaitley Stadium", city: "Delhi" }),
        located(28.6378),
        at("VenueRenamed", { name: "Arun Jaitley Stadium", city: "New Delhi" }),
        located(28.6),
      ]);
      const [row] = await db.sql`
        select name, city, latitude, longitude, alternative_names, sort_name, search_text from venue where venue_id = ${venue.id}`;
      expect(row).toEqual({
        name: "Arun Jaitley Stadium",
        city: "New Delhi",
        latitude: 28.6,
        longitude: 77.2432,
        alternative_names: ["Feroz Shah Kotla"],
        sort_name: "arun jaitley stadium",
        search_text: " arun jaitley stadium\n feroz shah kotla",
      });
      await world.append([at("VenueRenamed", { name: "Feroz Shah Kotla", city: "Delhi" })]);
      const [back] = await db.sql`select name, latitude, alternative_names from venue where venue_id = ${venue.id}`;
      expect(back).toEqual({ name: "Feroz Shah Kotla", latitude: null, alternative_names: ["Arun Jaitley Stadium"] });
    });

    it("changes nothing when the whole log is applied again", async () => {
      const before = await snapshot(db.sql, referenceData.tables);
      await replayWholeLog(db.sql, world.store, referenceData);
      expect(await snapshot(db.sql, referenceData.tables)).toEqual(before);
    });
  });
}
