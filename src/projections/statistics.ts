import type { DeliveryState } from "../../streams/fixture.js";
import { deliveryState, peopleIn } from "../../streams/fixture-state.js";
import type { Tx } from "../db/database.js";
import type { PlayerAggregate } from "../statistics/aggregate.js";
import { fixtureStatistics } from "../statistics/fixture-statistics.js";
import type { InningsInput } from "../statistics/innings-card.js";
import {
  type LeaderboardScope,
  leaderboardEntries,
  leaderboardFigures,
  METRICS,
  type Standing,
} from "../statistics/leaderboards.js";
import {
  type FixtureRow,
  type LineRow,
  type PlayerStatisticsScope,
  playerAggregates,
} from "../statistics/player-aggregates.js";
import type { Delivery } from "../statistics/rules.js";
import { defineProjector } from "./projector.js";
import { fixtureValues, json, perFixture, streamEntityId } from "./rows.js";

/**
 * Statistics derived from the current accepted delivery revisions: per-fixture scorecards,
 * per-player innings lines, and per-player aggregates for every season, competition and
 * career. The projector keeps its own copy of the inputs (fixtures, innings, current
 * deliveries, names), so it never reads another projector's tables, and recomputes each
 * fixture a batch touched, then the aggregates of every player of those fixtures.
 */
const ddl = `
  create table stat_fixture (
    fixture_id text primary key,
    competition_id text not null,
    season_id text not null,
    balls_per_over integer not null,
    competitors jsonb not null,
    squads jsonb not null default '{}',
    outcome jsonb
  );
  create table stat_innings (fixture_id text not null, innings_id text primary key, data jsonb not null);
  create index stat_innings_fixture on stat_innings (fixture_id);
  -- every delivery of a fixture as its current revision, {eventId: {sequenceNumber,
  -- revision, state}}: the recompute reads a fixture's deliveries whole, and one value a
  -- fixture is compressed (TOAST), where a row a delivery was stored as is, about 7x larger
  create table stat_deliveries (fixture_id text primary key, deliveries jsonb not null);
  create table stat_name (id text primary key, name text not null);
  create table fixture_statistics (
    fixture_id text primary key,
    competition_id text not null,
    season_id text not null,
    -- revision of the fixture stream's last event these statistics reflect (a cache key part)
    source_revision integer not null,
    statistics jsonb not null
  );
  create table player_line (
    participant_id text not null,
    fixture_id text not null,
    innings_id text not null,
    competition_id text not null,
    season_id text not null,
    balls_per_over integer not null,
    -- the PlayerInningsLine without the participant and innings ids the row holds; as text
    -- (json), 220 bytes, where jsonb's numerics made it 450 and Postgres compresses no row
    -- this short: 9 MB of the IPL's 33 MB
    line json not null,
    primary key (participant_id, innings_id)
  );
  create index player_line_fixture on player_line (fixture_id);
  create table player_fixture (
    participant_id text not null,
    fixture_id text not null,
    competition_id text not null,
    season_id text not null,
    primary key (participant_id, fixture_id)
  );
  create index player_fixture_fixture on player_fixture (fixture_id);
  create table player_aggregate (
    scope_type text not null,
    scope_id text not null,
    participant_id text not null,
    participant_name text not null,
    matches integer not null,
    batting_innings integer not null,
    runs integer not null,
    balls_faced integer not null,
    dismissals integer not null,
    fours integer not null,
    sixes integer not null,
    batting_average numeric,
    batting_strike_rate numeric,
    balls_bowled integer not null,
    runs_conceded integer not null,
    wickets integer not null,
    bowling_average numeric,
    economy numeric,
    bowling_strike_rate numeric,
    -- as text (json), which nothing queries into: 540 bytes against jsonb's 800
    figures json not null,
    primary key (scope_type, scope_id, participant_id)
  );
  create index player_aggregate_by_participant on player_aggregate (participant_id);
  -- every leaderboard as published: the JSON of its first ranks, best first, so a read of
  -- the first n rows is one key lookup and an array slice, with nothing to build per request
  create table leaderboard (
    scope_type text not null,
    scope_id text not null,
    metric text not null,
    rows text[] not null,
    -- The scope's version: the transaction that last ranked it (every metric of a scope is
    -- ranked together), so a cached table is keyed by what it depends on alone.
    version bigint not null default pg_current_xact_id()::text::bigint,
    primary key (scope_type, scope_id, metric)
  );`;

type Inputs = {
  fixture: {
    fixture_id: string;
    competition_id: string;
    season_id: string;
    balls_per_over: number;
    competitors: { competitorId: string; name: string }[];
    squads: Record<string, string[]>;
    outcome: unknown;
  };
  innings: InningsInput[];
  deliveries: Delivery[];
};

export const statistics = defineProjector({
  name: "statistics",
  // 8: a player's innings line as json, without its ids; aggregates' figures as json.
  version: 8,
  description: "Fixture scorecards, player innings lines, season/competition/career aggregates and leaderboard tables.",
  batchSize: 20_000,
  restMs: 500,
  tables: ["fixture_statistics", "player_aggregate", "player_line", "player_fixture", "leaderboard"],
  ddl,
  on: {
    ParticipantRegistered: (tx, events) => names(tx, events, (d) => d.participantId),
    TeamRegistered: (tx, events) => names(tx, events, (d) => d.teamId),
    FixtureScheduled: (tx, events) => {
      const rows = events.map((e) => {
        const d = e.data;
        return {
          fixture_id: d.fixtureId,
          competition_id: d.competitionId,
          season_id: d.seasonId,
          balls_per_over: d.ballsPerOver,
          competitors: d.competitors,
        };
      });
      return tx`
        insert into stat_fixture (fixture_id, competition_id, season_id, balls_per_over, competitors)
        select * from jsonb_to_recordset(${json(tx, rows)})
          as r(fixture_id text, competition_id text, season_id text, balls_per_over integer, competitors jsonb)
        on conflict (fixture_id) do nothing`;
    },
    SquadNamed: (tx, events) => {
      // Each fixture's namings in log order: a side named again replaces its earlier squad.
      const squads = new Map<string, Record<string, string[]>>();
      for (const { streamId, data } of events) {
        const fixtureId = streamEntityId(streamId);
        squads.set(fixtureId, { ...squads.get(fixtureId), [data.competitorId]: data.participantIds });
      }
      const rows = [...squads].map(([fixture_id, value]) => ({ fixture_id, value }));
      return tx`
        update stat_fixture s set squads = s.squads || r.value
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where s.fixture_id = r.fixture_id`;
    },
    InningsOpened: (tx, events) => {
      const rows = events.map((e) => ({
        fixture_id: streamEntityId(e.streamId),
        innings_id: e.data.inningsId,
        data: e.data,
      }));
      return tx`
        insert into stat_innings select * from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, innings_id text, data jsonb)
        on conflict (innings_id) do update set data = excluded.data`;
    },
    DeliveryRecorded: (tx, events) => {
      const rows = fixtureValues(events, keysOf, (recorded) => {
        const { data } = recorded.at(-1) as (typeof recorded)[number];
        return { sequenceNumber: data.sequenceNumber, revision: 1, state: deliveryState(data) };
      });
      // A delivery already kept wins: replaying a run changes nothing.
      return tx`
        insert into stat_deliveries
        select * from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        on conflict (fixture_id) do update set deliveries = excluded.deliveries || stat_deliveries.deliveries`;
    },
    DeliveryCorrected: (tx, events) => {
      // Of a run's corrections of a delivery the highest revision is the one to keep; only a
      // kept delivery at an older revision takes it.
      const rows = fixtureValues(events, keysOf, (corrections) => {
        const { revision, delivery } = corrections.reduce((a, b) => (b.data.revision > a.data.revision ? b : a)).data;
        return { revision, state: delivery };
      });
      return tx`
        update stat_deliveries s set deliveries = s.deliveries || (
          select coalesce(jsonb_object_agg(c.key, (s.deliveries -> c.key) || c.value), '{}')
          from jsonb_each(r.value) c
          where (s.deliveries -> c.key ->> 'revision')::int < (c.value ->> 'revision')::int)
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where s.fixture_id = r.fixture_id`;
    },
    OutcomeRecorded: (tx, events) => {
      const rows = perFixture(events, (e) => e.data);
      return tx`
        update stat_fixture s set outcome = r.value
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, value jsonb)
        where s.fixture_id = r.fixture_id`;
    },
  },
  settle: async (tx, events) => {
    // The last revision of each fixture stream in the batch (events come in log order).
    const revisions = new Map(
      events.filter((e) => e.streamId.startsWith("fixture-")).map((e) => [streamEntityId(e.streamId), e.revision]),
    );
    if (revisions.size > 0) await recompute(tx, revisions);
  },
});

const names = <E extends { data: { name: string } }>(
  tx: Tx,
  events: readonly E[],
  idOf: (data: E["data"]) => string,
) => {
  const rows = events.map((e) => ({ id: idOf(e.data), name: e.data.name }));
  return tx`insert into stat_name select * from jsonb_to_recordset(${json(tx, rows)}) as r(id text, name text) on conflict (id) do nothing`;
};

/**
 * Recomputes the touched fixtures. `revisions` holds each one's latest stream revision in the
 * batch: stored as `source_revision`, it tells readers (the versioned cache) which change of
 * the fixture the stored statistics reflect, whatever the other projectors have reached.
 */
async function recompute(tx: Tx, revisions: ReadonlyMap<string, number>) {
  const fixtureIds = [...revisions.keys()];
  const inputs = await loadInputs(tx, fixtureIds);
  const nameRows = await tx<{ id: string; name: string }[]>`
    select id, name from stat_name where id = any(${[...peopleOf(inputs)]})`;
  const known = new Map(nameRows.map((r) => [r.id, r.name]));
  const name = (id: string) => known.get(id) ?? id;

  const before = await tx<{ participant_id: string; season_id: string; competition_id: string }[]>`
    select participant_id, season_id, competition_id from player_line where fixture_id = any(${fixtureIds})
    union select participant_id, season_id, competition_id from player_fixture where fixture_id = any(${fixtureIds})`;
  const statisticsRows: object[] = [];
  const lineRows: object[] = [];
  const memberRows: object[] = [];
  for (const { fixture, innings, deliveries } of inputs) {
    const computed = fixtureStatistics({ ...fixture, ballsPerOver: fixture.balls_per_over, innings, deliveries, name });
    statisticsRows.push({
      fixture_id: fixture.fixture_id,
      competition_id: fixture.competition_id,
      season_id: fixture.season_id,
      source_revision: revisions.get(fixture.fixture_id),
      statistics: computed.statistics,
    });
    const scope = {
      fixture_id: fixture.fixture_id,
      competition_id: fixture.competition_id,
      season_id: fixture.season_id,
    };
    for (const { participantId, inningsId, ...line } of computed.lines)
      lineRows.push({
        participant_id: participantId,
        innings_id: inningsId,
        balls_per_over: fixture.balls_per_over,
        line,
        ...scope,
      });
    for (const participantId of new Set(Object.values(fixture.squads).flat()))
      memberRows.push({ participant_id: participantId, ...scope });
  }
  await tx`delete from fixture_statistics where fixture_id = any(${fixtureIds})`;
  await tx`insert into fixture_statistics select * from jsonb_to_recordset(${json(tx, statisticsRows)})
           as r(fixture_id text, competition_id text, season_id text, source_revision integer, statistics jsonb)`;
  await tx`delete from player_line where fixture_id = any(${fixtureIds})`;
  await tx`insert into player_line (participant_id, fixture_id, innings_id, competition_id, season_id, balls_per_over, line)
           select participant_id, fixture_id, innings_id, competition_id, season_id, balls_per_over, line
           from jsonb_to_recordset(${json(tx, lineRows)})
           as r(participant_id text, fixture_id text, innings_id text, competition_id text, season_id text, balls_per_over integer, line json)`;
  await tx`delete from player_fixture where fixture_id = any(${fixtureIds})`;
  await tx`insert into player_fixture (participant_id, fixture_id, competition_id, season_id)
           select participant_id, fixture_id, competition_id, season_id
           from jsonb_to_recordset(${json(tx, memberRows)}) as r(participant_id text, fixture_id text, competition_id text, season_id text)`;

  const participants = [
    ...new Set([
      ...before.map((r) => r.participant_id),
      ...lineRows.map((r) => (r as { participant_id: string }).participant_id),
      ...memberRows.map((r) => (r as { participant_id: string }).participant_id),
    ]),
  ];
  // Only careers and the seasons and competitions the fixtures were or are in can change.
  const scoped = [...before, ...inputs.map((i) => i.fixture)];
  const touched = {
    seasons: [...new Set(scoped.map((r) => r.season_id))],
    competitions: [...new Set(scoped.map((r) => r.competition_id))],
  };
  await recomputeAggregates(tx, participants, name, touched);
}

/**
 * Everyone the fixtures name, from the inputs already loaded: asking the database instead
 * scanned the fixtures' deliveries four more times, and once the table held two IPLs its
 * estimates turned each scan parallel, doubling the batch's time.
 */
function peopleOf(inputs: readonly Inputs[]): Set<string> {
  const people = new Set<string>();
  for (const { fixture, deliveries } of inputs) {
    for (const id of Object.values(fixture.squads).flat()) people.add(id);
    for (const d of deliveries) for (const id of peopleIn(d)) people.add(id);
  }
  return people;
}

async function loadInputs(tx: Tx, fixtureIds: string[]): Promise<Inputs[]> {
  const fixtures = await tx<Inputs["fixture"][]>`select * from stat_fixture where fixture_id = any(${fixtureIds})`;
  const innings = await tx<{ fixture_id: string; data: InningsInput }[]>`
    select fixture_id, data from stat_innings where fixture_id = any(${fixtureIds}) order by fixture_id, (data ->> 'ordinal')::int`;
  const kept = await tx<{ fixture_id: string; deliveries: Record<string, KeptDelivery> }[]>`
    select fixture_id, deliveries from stat_deliveries where fixture_id = any(${fixtureIds})`;
  const deliveriesOf = new Map(kept.map((k) => [k.fixture_id, k.deliveries]));
  return fixtures.map((fixture) => ({
    fixture,
    innings: innings.filter((i) => i.fixture_id === fixture.fixture_id).map((i) => i.data),
    deliveries: Object.entries(deliveriesOf.get(fixture.fixture_id) ?? {})
      .map(([eventId, { sequenceNumber, state }]) => ({ ...state, eventId, sequenceNumber }))
      .sort(byInningsAndSequence),
  }));
}

type KeptDelivery = { sequenceNumber: number; revision: number; state: DeliveryState };

const byInningsAndSequence = (a: Delivery, b: Delivery) =>
  a.inningsId < b.inningsId ? -1 : a.inningsId > b.inningsId ? 1 : a.sequenceNumber - b.sequenceNumber;

/** Where a delivery event's entry goes: its fixture's value, under its id. */
const keysOf = (e: { streamId: string; data: { eventId: string } }) => ({
  fixtureId: streamEntityId(e.streamId),
  eventId: e.data.eventId,
});

/**
 * The aggregates of `participantIds` in their careers and in the `touched` seasons and
 * competitions, and the tables of those seasons and competitions. Their other scopes hold
 * no fixture the batch changed, so they stand as they are: recomputing and ranking every
 * scope of every player touched made a batch's cost grow with the players' histories.
 */
async function recomputeAggregates(
  tx: Tx,
  participantIds: string[],
  name: (id: string) => string,
  touched: { seasons: string[]; competitions: string[] },
) {
  if (participantIds.length === 0) return;
  const lines = await tx<LineRow[]>`
    select participant_id, fixture_id, competition_id, season_id, balls_per_over, line from player_line where participant_id = any(${participantIds})`;
  const fixtures = await tx<FixtureRow[]>`
    select participant_id, fixture_id, competition_id, season_id from player_fixture where participant_id = any(${participantIds})`;
  const seasons = new Set(touched.seasons);
  const competitions = new Set(touched.competitions);
  const within = (scope: PlayerStatisticsScope) =>
    scope.type === "career" || (scope.type === "season" ? seasons : competitions).has(scope.id);
  const rows = playerAggregates(participantIds, lines, fixtures, within).map(({ participantId, scope, figures }) =>
    aggregateRow(participantId, scope, figures, name),
  );
  await tx`
    delete from player_aggregate where participant_id = any(${participantIds})
      and (scope_type = 'career'
           or (scope_type = 'season' and scope_id = any(${touched.seasons}))
           or (scope_type = 'competition' and scope_id = any(${touched.competitions})))`;
  if (rows.length > 0)
    await tx`insert into player_aggregate select * from jsonb_to_recordset(${json(tx, rows)}) as r(
    scope_type text, scope_id text, participant_id text, participant_name text, matches integer, batting_innings integer,
    runs integer, balls_faced integer, dismissals integer, fours integer, sixes integer, batting_average numeric,
    batting_strike_rate numeric, balls_bowled integer, runs_conceded integer, wickets integer, bowling_average numeric,
    economy numeric, bowling_strike_rate numeric, figures json)`;
  await rankScopes(tx, [
    ...touched.seasons.map((id) => ({ scope_type: "season", scope_id: id })),
    ...touched.competitions.map((id) => ({ scope_type: "competition", scope_id: id })),
  ]);
}

type ScopeKey = { scope_type: string; scope_id: string };

/** Ranks every leaderboard of the seasons and competitions whose aggregates changed. */
async function rankScopes(tx: Tx, changed: readonly ScopeKey[]) {
  const scopes = [
    ...new Map(
      changed
        .filter((s) => s.scope_type !== "career")
        .map((s) => [`${s.scope_type}:${s.scope_id}`, { scope_type: s.scope_type, scope_id: s.scope_id }]),
    ).values(),
  ];
  if (scopes.length === 0) return;
  const standings = await tx<(ScopeKey & StandingRow)[]>`
    select a.scope_type, a.scope_id, a.participant_id, a.participant_name, a.figures, a.batting_innings, a.runs,
           a.balls_faced, a.dismissals, a.fours, a.sixes, a.balls_bowled, a.runs_conceded, a.wickets
    from jsonb_to_recordset(${json(tx, scopes)}) as s(scope_type text, scope_id text)
    join player_aggregate a on a.scope_type = s.scope_type and a.scope_id = s.scope_id`;
  const tables = scopes.flatMap((scope) => {
    const players = new Map(
      standings
        .filter((s) => s.scope_type === scope.scope_type && s.scope_id === scope.scope_id)
        .map((s) => [s.participant_id, s]),
    );
    const entries = leaderboardEntries(scope.scope_type as LeaderboardScope, [...players.values()].map(toStanding));
    return METRICS.map((metric) => ({
      ...scope,
      metric,
      // Each row's JSON in the order the API publishes its fields.
      rows: entries
        .filter((entry) => entry.metric === metric)
        .map(({ rank, participantId }) => {
          const player = players.get(participantId) as StandingRow;
          const { value, figures } = leaderboardFigures(metric, player.figures);
          return JSON.stringify({ rank, participantId, participantName: player.participant_name, value, figures });
        }),
    }));
  });
  await tx`delete from leaderboard l using jsonb_to_recordset(${json(tx, scopes)}) as s(scope_type text, scope_id text)
           where l.scope_type = s.scope_type and l.scope_id = s.scope_id`;
  await tx`insert into leaderboard select * from jsonb_to_recordset(${json(tx, tables)})
           as r(scope_type text, scope_id text, metric text, rows text[])`;
}

type StandingRow = {
  participant_id: string;
  participant_name: string;
  figures: PlayerAggregate;
  batting_innings: number;
  runs: number;
  balls_faced: number;
  dismissals: number;
  fours: number;
  sixes: number;
  balls_bowled: number;
  runs_conceded: number;
  wickets: number;
};

const toStanding = (r: StandingRow): Standing => ({
  participantId: r.participant_id,
  name: r.participant_name,
  battingInnings: r.batting_innings,
  runs: r.runs,
  ballsFaced: r.balls_faced,
  dismissals: r.dismissals,
  fours: r.fours,
  sixes: r.sixes,
  bowlingInnings: r.figures.bowling.innings,
  ballsBowled: r.balls_bowled,
  runsConceded: r.runs_conceded,
  wickets: r.wickets,
});

function aggregateRow(
  participantId: string,
  scope: PlayerStatisticsScope,
  figures: ReturnType<typeof playerAggregates>[number]["figures"],
  name: (id: string) => string,
) {
  const { batting, bowling } = figures;
  return {
    scope_type: scope.type,
    scope_id: scope.id,
    participant_id: participantId,
    participant_name: name(participantId),
    matches: figures.matches,
    batting_innings: batting.innings,
    runs: batting.runs,
    balls_faced: batting.balls,
    dismissals: batting.innings - batting.notOuts,
    fours: batting.fours,
    sixes: batting.sixes,
    batting_average: batting.average,
    batting_strike_rate: batting.strikeRate,
    balls_bowled: bowling.balls,
    runs_conceded: bowling.runs,
    wickets: bowling.wickets,
    bowling_average: bowling.average,
    economy: bowling.economy,
    bowling_strike_rate: bowling.strikeRate,
    figures,
  };
}
