import { CompetitionNameAdded, CompetitionRegistered } from "../../streams/competition.js";
import { FixtureScheduled } from "../../streams/fixture.js";
import { ParticipantNameAdded, ParticipantRegistered } from "../../streams/participant.js";
import { SeasonRegistered } from "../../streams/season.js";
import { TeamNameAdded, TeamRegistered } from "../../streams/team.js";
import { VenueLocated, VenueNameAdded, VenueRegistered, VenueRenamed } from "../../streams/venue.js";
import { VocabularyTermAdded } from "../../streams/vocabulary.js";
import type { Tx } from "../db/database.js";
import { searchText } from "../names/search-text.js";
import { defineProjector } from "./projector.js";
import { json, lastByKey } from "./rows.js";

/**
 * Competitions, seasons, competitors (teams), participants, venues and the dismissal-kind
 * vocabulary. Every named entity keeps its registered name, the other spellings it was
 * added under, a lower-cased sort key and a search text holding every spelling's words
 * (src/names/search-text.ts).
 *
 * A season's dates, fixture count and display name derive from the fixtures scheduled in
 * it, so this projector also follows FixtureScheduled (into `season_fixture`) and
 * recomputes the touched seasons: idempotent, and right whichever of the season and its
 * fixtures comes first in the log.
 */
const named = (table: string, id: string, extra = "") => `
  create table ${table} (
    ${id} text primary key,
    name text not null,
    alternative_names text[] not null default '{}',
    source_ids text[] not null,
    ${extra}
    sort_name text not null,
    search_text text not null
  );
  create index ${table}_by_name on ${table} (sort_name, ${id});
  create index ${table}_by_search_text on ${table} using gin (search_text public.gin_trgm_ops) with (fastupdate = off);`;

const ddl = `
  ${named("competition", "competition_id")}
  ${named("competitor", "competitor_id", "team_type text not null, gender text not null,")}
  ${named("participant", "participant_id")}
  ${named("venue", "venue_id", "city text, latitude double precision, longitude double precision,")}
  create table season (
    season_id text primary key,
    competition_id text not null,
    label text not null,
    name text not null,
    start_date date,
    end_date date,
    fixture_count integer not null default 0
  );
  create index season_by_competition on season (competition_id, start_date, season_id);
  create table season_fixture (
    fixture_id text primary key,
    season_id text not null,
    start_date date not null,
    end_date date not null
  );
  create index season_fixture_by_season on season_fixture (season_id);
  create table dismissal_kind (kind text primary key);`;

type NamedTable = "competition" | "competitor" | "participant" | "venue";

/** The search text of an entity of `table` known by these names (people also by their initials). */
const searchable = (table: NamedTable, names: readonly string[]) =>
  searchText(names, { initials: table === "participant" });

type Registration = { id: string; name: string; source_ids: string[] };
const withSearchText = <Row extends Registration>(table: NamedTable, rows: Row[]) =>
  rows.map((r) => ({ ...r, search_text: searchable(table, [r.name]) }));

/** Registered entities; a replayed registration changes nothing. */
const registerCompetitions = (tx: Tx, rows: Registration[]) => tx`
  insert into competition (competition_id, name, source_ids, sort_name, search_text)
  select id, name, source_ids, lower(name), search_text
  from jsonb_to_recordset(${json(tx, withSearchText("competition", rows))})
    as r(id text, name text, source_ids text[], search_text text)
  on conflict do nothing`;

const registerParticipants = (tx: Tx, rows: Registration[]) => tx`
  insert into participant (participant_id, name, source_ids, sort_name, search_text)
  select id, name, source_ids, lower(name), search_text
  from jsonb_to_recordset(${json(tx, withSearchText("participant", rows))})
    as r(id text, name text, source_ids text[], search_text text)
  on conflict do nothing`;

const registerCompetitors = (tx: Tx, rows: (Registration & { team_type: string; gender: string })[]) => tx`
  insert into competitor (competitor_id, name, source_ids, team_type, gender, sort_name, search_text)
  select id, name, source_ids, team_type, gender, lower(name), search_text
  from jsonb_to_recordset(${json(tx, withSearchText("competitor", rows))})
    as r(id text, name text, source_ids text[], team_type text, gender text, search_text text)
  on conflict do nothing`;

const registerVenues = (tx: Tx, rows: (Registration & { city: string | null })[]) => tx`
  insert into venue (venue_id, name, source_ids, city, latitude, longitude, sort_name, search_text)
  select id, name, source_ids, city, latitude, longitude, lower(name), search_text
  from jsonb_to_recordset(${json(tx, withSearchText("venue", rows))})
    as r(id text, name text, source_ids text[], city text, latitude double precision, longitude double precision,
         search_text text)
  on conflict do nothing`;

type Spellings = { id: string; name: string; alternative_names: string[] };

/** Writes the search text of entities whose spellings changed. */
const refreshSearchText = (tx: Tx, table: NamedTable, changed: Spellings[]) => {
  const rows = changed.map((r) => ({ id: r.id, search_text: searchable(table, [r.name, ...r.alternative_names]) }));
  return tx`
    update ${tx(table)} t set search_text = r.search_text
    from jsonb_to_recordset(${json(tx, rows)}) as r(id text, search_text text)
    where t.${tx(`${table}_id`)} = r.id`;
};

/** Adds other spellings (a set: adding one twice, or the registered name, changes nothing). */
const addNames = async (tx: Tx, table: NamedTable, rows: { id: string; name: string }[]) => {
  const id = tx(`${table}_id`);
  const changed = await tx<Spellings[]>`
    update ${tx(table)} t
    set alternative_names = m.names
    from (
      select e.${id} as id,
             array(select distinct n from unnest(e.alternative_names || v.names) n where n <> e.name order by n) as names
      from ${tx(table)} e
      join (select id, array_agg(name) as names from jsonb_to_recordset(${json(tx, rows)}) as r(id text, name text)
            group by id) v on v.id = e.${id}
    ) m
    where t.${id} = m.id
    returning t.${id} as id, t.name, t.alternative_names`;
  await refreshSearchText(tx, table, changed);
};

/** The venue under its new name and city; the old name becomes another spelling, its coordinates go. */
const renameVenue = async (tx: Tx, venueId: string, name: string, city: string | null) => {
  const changed = await tx<Spellings[]>`
    update venue t
    set name = ${name}, city = ${city}, latitude = null, longitude = null, sort_name = lower(${name}),
        alternative_names = m.names
    from (
      select array(select distinct n from unnest(e.alternative_names || e.name) n where n <> ${name} order by n) as names
      from venue e where e.venue_id = ${venueId}
    ) m
    where t.venue_id = ${venueId}
    returning t.venue_id as id, t.name, t.alternative_names`;
  await refreshSearchText(tx, "venue", changed);
};

/**
 * Dates, fixture count and display name of the given seasons from their fixtures: "2016"
 * when every fixture starts in one calendar year, "2019/20" when they span two (or more);
 * the source label while the season has no fixture.
 */
const recomputeSeasons = (tx: Tx, seasonIds: string[]) => tx`
  update season s
  set start_date = a.first_start, end_date = a.last_end, fixture_count = a.fixtures,
      name = case
        when a.first_start is null then s.label
        when extract(year from a.first_start) = extract(year from a.last_start)
          then extract(year from a.first_start)::int::text
        else extract(year from a.first_start)::int::text || '/'
             || lpad((extract(year from a.last_start)::int % 100)::text, 2, '0')
      end
  from (
    select s2.season_id, min(f.start_date) as first_start, max(f.start_date) as last_start,
           max(f.end_date) as last_end, count(f.fixture_id)::int as fixtures
    from season s2 left join season_fixture f on f.season_id = s2.season_id
    where s2.season_id = any(${seasonIds})
    group by s2.season_id
  ) a
  where s.season_id = a.season_id`;

export const referenceData = defineProjector({
  name: "reference_data",
  // 4: search indexes without a pending list (fastupdate off): the names registered since the
  // last vacuum sat in an unsorted list every search read, and the planner turned to walking
  // every name in order.
  version: 4,
  description: "Competitions, seasons, competitors, participants, venues and dismissal kinds.",
  tables: ["competition", "season", "competitor", "participant", "venue", "dismissal_kind"],
  ddl,
  on: {
    [CompetitionRegistered.type]: (tx, events) =>
      registerCompetitions(
        tx,
        events.map(({ data: d }) => ({
          id: d.competitionId,
          name: d.name,
          source_ids: d.sourceIds,
        })),
      ),
    [CompetitionNameAdded.type]: (tx, events) =>
      addNames(
        tx,
        "competition",
        events.map(({ data: d }) => ({ id: d.competitionId, name: d.name })),
      ),
    [TeamRegistered.type]: (tx, events) =>
      registerCompetitors(
        tx,
        events.map(({ data: d }) => ({
          id: d.teamId,
          name: d.name,
          source_ids: d.sourceIds,
          team_type: d.teamType,
          gender: d.gender,
        })),
      ),
    [TeamNameAdded.type]: (tx, events) =>
      addNames(
        tx,
        "competitor",
        events.map(({ data: d }) => ({ id: d.teamId, name: d.name })),
      ),
    [ParticipantRegistered.type]: (tx, events) =>
      registerParticipants(
        tx,
        events.map(({ data: d }) => ({
          id: d.participantId,
          name: d.name,
          source_ids: d.sourceIds,
        })),
      ),
    [ParticipantNameAdded.type]: (tx, events) =>
      addNames(
        tx,
        "participant",
        events.map(({ data: d }) => ({ id: d.participantId, name: d.name })),
      ),
    [VenueRegistered.type]: (tx, events) =>
      registerVenues(
        tx,
        events.map(({ data: d }) => ({
          id: d.venueId,
          name: d.name,
          source_ids: d.sourceIds,
          city: d.city,
          latitude: d.latitude,
          longitude: d.longitude,
        })),
      ),
    [VenueNameAdded.type]: (tx, events) =>
      addNames(
        tx,
        "venue",
        events.map(({ data: d }) => ({ id: d.venueId, name: d.name })),
      ),
    [VenueRenamed.type]: async (tx, events) => {
      // Renames are rare and each builds on the one before: one statement each, in order.
      for (const { data: d } of events) await renameVenue(tx, d.venueId, d.name, d.city);
    },
    [VenueLocated.type]: (tx, events) => {
      const rows = lastByKey(
        events.map(({ data: d }) => ({ id: d.venueId, latitude: d.latitude, longitude: d.longitude })),
        (r) => r.id,
      );
      return tx`
        update venue v set latitude = r.latitude, longitude = r.longitude
        from jsonb_to_recordset(${json(tx, rows)}) as r(id text, latitude double precision, longitude double precision)
        where v.venue_id = r.id`;
    },
    [SeasonRegistered.type]: async (tx, events) => {
      const rows = events.map(({ data: d }) => ({
        season_id: d.seasonId,
        competition_id: d.competitionId,
        label: d.label,
      }));
      await tx`
        insert into season (season_id, competition_id, label, name)
        select season_id, competition_id, label, label
        from jsonb_to_recordset(${json(tx, rows)}) as r(season_id text, competition_id text, label text)
        on conflict do nothing`;
      await recomputeSeasons(
        tx,
        rows.map((r) => r.season_id),
      );
    },
    [FixtureScheduled.type]: async (tx, events) => {
      const rows = lastByKey(
        events.map(({ data: d }) => ({
          fixture_id: d.fixtureId,
          season_id: d.seasonId,
          start_date: d.startDate,
          end_date: d.endDate,
        })),
        (r) => r.fixture_id,
      );
      // A fixture moved to another season leaves its old season too.
      const previous = await tx<{ season_id: string }[]>`
        select distinct season_id from season_fixture where fixture_id = any(${rows.map((r) => r.fixture_id)})`;
      await tx`
        insert into season_fixture (fixture_id, season_id, start_date, end_date)
        select fixture_id, season_id, start_date, end_date
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, season_id text, start_date date, end_date date)
        on conflict (fixture_id) do update
          set season_id = excluded.season_id, start_date = excluded.start_date, end_date = excluded.end_date`;
      await recomputeSeasons(tx, [...new Set([...rows.map((r) => r.season_id), ...previous.map((p) => p.season_id)])]);
    },
    [VocabularyTermAdded.type]: (tx, events) => {
      const kinds = events
        .map((e) => e.data)
        .filter((d) => d.vocabulary === "dismissal_kind")
        .map((d) => ({ kind: d.term }));
      return tx`
        insert into dismissal_kind (kind) select kind from jsonb_to_recordset(${json(tx, kinds)}) as r(kind text)
        on conflict do nothing`;
    },
  },
});
