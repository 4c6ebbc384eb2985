import {
  FixtureScheduled,
  FixtureSourceRevised,
  OutcomeRecorded,
  SquadNamed,
  TossRecorded,
} from "../../streams/fixture.js";
import { defineProjector } from "./projector.js";
import { dataWithStream, json, lastByKey, perFixture } from "./rows.js";

/**
 * Fixtures as scheduled, with their toss, outcome and source revision, and the squads the
 * competitors named. Innings and deliveries are the `deliveries` read model.
 *
 * A squad member keeps its fixture's start date (moved with the fixture, should it be
 * scheduled again): a page of a participant's fixtures is then the next entries of one
 * index (version 2; version 1 read and sorted every fixture of the career for every page).
 * Every command appends a fixture's FixtureScheduled before its SquadNamed, in its stream:
 * a member whose fixture had no row would have no start date, refused by the table.
 */
const ddl = `
  create table fixture (
    fixture_id text primary key,
    competition_id text not null,
    season_id text not null,
    venue_id text,
    competitor_ids text[] not null,
    -- [{competitorId, name}]: the names the competitors played under in this fixture
    competitors jsonb not null,
    start_date date not null,
    end_date date not null,
    match_type text not null,
    team_type text not null,
    gender text not null,
    balls_per_over integer not null,
    overs_per_innings integer,
    stage text,
    match_number integer,
    -- {sourceId, revision, dataVersion, createdOn}
    source jsonb,
    -- {winnerId, decision}
    toss jsonb,
    -- OutcomeRecorded data
    outcome jsonb
  );
  create index fixture_by_date on fixture (start_date, fixture_id);
  create index fixture_by_competition on fixture (competition_id, start_date, fixture_id);
  create index fixture_by_season on fixture (season_id, start_date, fixture_id);
  create index fixture_by_competitor on fixture using gin (competitor_ids);
  create table squad_member (
    fixture_id text not null,
    competitor_id text not null,
    participant_id text not null,
    -- order in the named squad, from 0
    position integer not null,
    -- the fixture's, so that a participant's fixtures are read in date order from the index below
    start_date date not null,
    primary key (fixture_id, competitor_id, participant_id)
  );
  create index squad_member_by_participant on squad_member (participant_id, start_date, fixture_id)
    include (competitor_id);`;

export const fixtures = defineProjector({
  name: "fixtures",
  version: 2,
  description: "Fixtures with toss, outcome and source revision, and the named squads.",
  tables: ["fixture", "squad_member"],
  ddl,
  on: {
    [FixtureScheduled.type]: async (tx, events) => {
      const rows = events.map(({ data: d }) => ({
        fixture_id: d.fixtureId,
        competition_id: d.competitionId,
        season_id: d.seasonId,
        venue_id: d.venueId,
        competitor_ids: d.competitors.map((c) => c.competitorId),
        competitors: d.competitors,
        start_date: d.startDate,
        end_date: d.endDate,
        match_type: d.matchType,
        team_type: d.teamType,
        gender: d.gender,
        balls_per_over: d.ballsPerOver,
        overs_per_innings: d.oversPerInnings,
        stage: d.stage,
        match_number: d.matchNumber,
        source: d.source,
      }));
      const unique = lastByKey(rows, (r) => r.fixture_id);
      await tx`
        insert into fixture (fixture_id, competition_id, season_id, venue_id, competitor_ids, competitors,
                             start_date, end_date, match_type, team_type, gender, balls_per_over,
                             overs_per_innings, stage, match_number, source)
        select * from jsonb_to_recordset(${json(tx, unique)}) as r(
          fixture_id text, competition_id text, season_id text, venue_id text, competitor_ids text[], competitors jsonb,
          start_date date, end_date date, match_type text, team_type text, gender text, balls_per_over integer,
          overs_per_innings integer, stage text, match_number integer, source jsonb)
        on conflict (fixture_id) do update set
          competition_id = excluded.competition_id, season_id = excluded.season_id, venue_id = excluded.venue_id,
          competitor_ids = excluded.competitor_ids, competitors = excluded.competitors,
          start_date = excluded.start_date, end_date = excluded.end_date, match_type = excluded.match_type,
          team_type = excluded.team_type, gender = excluded.gender, balls_per_over = excluded.balls_per_over,
          overs_per_innings = excluded.overs_per_innings, stage = excluded.stage,
          match_number = excluded.match_number, source = excluded.source`;
      await tx`
        update squad_member m set start_date = f.start_date
        from fixture f
        where f.fixture_id = any(${unique.map((r) => r.fixture_id)}) and m.fixture_id = f.fixture_id
          and m.start_date <> f.start_date`;
    },
    [TossRecorded.type]: (tx, events) => {
      const rows = perFixture(events, (e) => e.data);
      return tx`
        update fixture f set toss = r.value
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where f.fixture_id = r.fixture_id`;
    },
    [OutcomeRecorded.type]: (tx, events) => {
      const rows = perFixture(events, (e) => e.data);
      return tx`
        update fixture f set outcome = r.value
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where f.fixture_id = r.fixture_id`;
    },
    [FixtureSourceRevised.type]: (tx, events) => {
      // The highest revision in the run wins, and only over a lower one already stored.
      const rows = perFixture(
        [...events].sort((a, b) => a.data.revision - b.data.revision),
        (e) => e.data,
      );
      return tx`
        update fixture f
        set source = f.source || jsonb_build_object('revision', r.value -> 'revision', 'createdOn', r.value -> 'createdOn')
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where f.fixture_id = r.fixture_id and f.source is not null
          and (f.source ->> 'revision')::int < (r.value ->> 'revision')::int`;
    },
    [SquadNamed.type]: async (tx, events) => {
      // Naming a competitor's squad again replaces it.
      const squads = lastByKey(dataWithStream(events), (s) => `${s.entityId}\u0000${s.data.competitorId}`);
      const keys = squads.map((s) => ({ fixture_id: s.entityId, competitor_id: s.data.competitorId }));
      const members = squads.flatMap((s) =>
        [...new Set(s.data.participantIds)].map((participantId, position) => ({
          fixture_id: s.entityId,
          competitor_id: s.data.competitorId,
          participant_id: participantId,
          position,
        })),
      );
      await tx`
        delete from squad_member m
        using jsonb_to_recordset(${json(tx, keys)}) as k(fixture_id text, competitor_id text)
        where m.fixture_id = k.fixture_id and m.competitor_id = k.competitor_id`;
      await tx`
        insert into squad_member (fixture_id, competitor_id, participant_id, position, start_date)
        select r.*, (select f.start_date from fixture f where f.fixture_id = r.fixture_id)
        from jsonb_to_recordset(${json(tx, members)})
          as r(fixture_id text, competitor_id text, participant_id text, position integer)`;
    },
  },
});
