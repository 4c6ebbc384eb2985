import { DeliveryCorrected, DeliveryRecorded, type DeliveryState, InningsOpened } from "../../streams/fixture.js";
import { peopleIn } from "../../streams/fixture-state.js";
import type { Tx } from "../db/database.js";
import { defineProjector } from "./projector.js";
import { dataWithStream, json, lastByKey } from "./rows.js";

/**
 * The ball-by-ball ledger as it stands: every innings with its running totals, the current
 * revision of every delivery, and who appeared in the deliveries of each fixture.
 *
 * A delivery row carries what the read API filters on: the innings ordinal (copied from its
 * innings), everyone involved and the lower-cased wicket kinds; the `delivery` view adds its
 * innings' batting side. Every read is scoped to one fixture (at most a few thousand
 * deliveries), so the occurrence-order index serves the filters too; a GIN index on the arrays
 * measured about 10% of catch-up time for no read that needs it yet. A DeliveryCorrected
 * replaces the row's state when its revision is higher (the sequence number is inherited);
 * innings totals and appearances are recomputed from the current rows of what a run touched,
 * so replaying a run changes nothing.
 */
const ddl = `
  create table innings (
    fixture_id text not null,
    innings_id text not null,
    ordinal integer not null,
    batting_competitor_id text not null,
    bowling_competitor_id text not null,
    super_over boolean not null,
    -- {runs, overs} or null
    target jsonb,
    declared boolean not null,
    forfeited boolean not null,
    penalty_runs_pre integer not null,
    penalty_runs_post integer not null,
    -- totals over current delivery revisions; runs include the penalty runs above
    runs integer not null default 0,
    wickets integer not null default 0,
    legal_balls integer not null default 0,
    deliveries integer not null default 0,
    primary key (fixture_id, innings_id)
  );
  create index innings_by_ordinal on innings (fixture_id, ordinal);
  create table current_delivery (
    event_id uuid primary key,
    fixture_id text not null,
    innings_id text not null,
    innings_ordinal integer not null,
    sequence_number integer not null,
    revision integer not null,
    over_number integer not null,
    position_in_over integer not null,
    ball_number text,
    striker_id text not null,
    non_striker_id text not null,
    bowler_id text not null,
    runs_off_bat integer not null,
    runs_extras integer not null,
    runs_total integer not null,
    runs_non_boundary boolean,
    extra_wides integer,
    extra_no_balls integer,
    extra_byes integer,
    extra_leg_byes integer,
    extra_penalty integer,
    -- [{kind, playerOutId, fielders: [{participantId, substitute}]}], as submitted
    wickets jsonb not null,
    -- players out and fielders other than the striker, non-striker and bowler; null when none
    other_participant_ids text[],
    -- lower case; null when no wicket fell
    wicket_kinds text[],
    legal boolean not null,
    -- wickets that count against the batting side (not retired hurt or retired not out)
    fallen_wickets integer not null
  );
  create unique index delivery_in_occurrence_order
    on current_delivery (fixture_id, innings_ordinal, sequence_number, event_id);
  -- What readers see, as in version 1 (readers of either version's tables run the same SQL
  -- while a rebuild is under way): everyone in the delivery, and its innings' batting side,
  -- which a query that does not ask for it does not join (the join is on the innings' key).
  create view delivery as
    select d.*,
      -- striker, non-striker, bowler, players out and fielders
      array[d.striker_id, d.non_striker_id, d.bowler_id] || coalesce(d.other_participant_ids, '{}') as participant_ids,
      i.batting_competitor_id
    from current_delivery d left join innings i on i.fixture_id = d.fixture_id and i.innings_id = d.innings_id;
  create table appearance (
    participant_id text not null,
    fixture_id text not null,
    primary key (participant_id, fixture_id)
  );
  create index appearance_by_fixture on appearance (fixture_id);`;

const nonEmpty = <T>(items: T[]): T[] | null => (items.length > 0 ? items : null);

/** Players out and fielders of a delivery who are not its striker, non-striker or bowler. */
const othersIn = (state: DeliveryState) => {
  const atTheCrease = new Set([state.strikerId, state.nonStrikerId, state.bowlerId]);
  return [...new Set(peopleIn(state))].filter((p) => !atTheCrease.has(p));
};

/** Wicket kinds that do not dismiss the batter (DESIGN.md §8). */
const NOT_DISMISSALS = new Set(["retired hurt", "retired not out"]);

type InningsKey = { fixture_id: string; innings_id: string };
type InningsFacts = InningsKey & { ordinal: number };

const key = (fixtureId: string, inningsId: string) => `${fixtureId}\u0000${inningsId}`;

async function inningsFacts(tx: Tx, keys: InningsKey[]): Promise<Map<string, InningsFacts>> {
  const rows = await tx<InningsFacts[]>`
    select i.fixture_id, i.innings_id, i.ordinal
    from innings i join jsonb_to_recordset(${json(tx, keys)}) as k(fixture_id text, innings_id text)
      on i.fixture_id = k.fixture_id and i.innings_id = k.innings_id`;
  return new Map(rows.map((r) => [key(r.fixture_id, r.innings_id), r]));
}

/** The row of one delivery revision; its innings must have been opened before it. */
function deliveryRow(
  fixtureId: string,
  eventId: string,
  sequenceNumber: number,
  revision: number,
  state: DeliveryState,
  innings: Map<string, InningsFacts>,
) {
  const facts = innings.get(key(fixtureId, state.inningsId));
  if (!facts)
    throw new Error(`delivery ${eventId}: innings ${state.inningsId} of fixture ${fixtureId} was never opened`);
  return {
    event_id: eventId,
    fixture_id: fixtureId,
    innings_id: state.inningsId,
    innings_ordinal: facts.ordinal,
    sequence_number: sequenceNumber,
    revision,
    over_number: state.overNumber,
    position_in_over: state.positionInOver,
    ball_number: state.ballNumber,
    striker_id: state.strikerId,
    non_striker_id: state.nonStrikerId,
    bowler_id: state.bowlerId,
    runs_off_bat: state.runs.offBat,
    runs_extras: state.runs.extras,
    runs_total: state.runs.total,
    runs_non_boundary: state.runs.nonBoundary ?? null,
    extra_wides: state.extras.wides ?? null,
    extra_no_balls: state.extras.noBalls ?? null,
    extra_byes: state.extras.byes ?? null,
    extra_leg_byes: state.extras.legByes ?? null,
    extra_penalty: state.extras.penalty ?? null,
    wickets: state.wickets,
    other_participant_ids: nonEmpty(othersIn(state)),
    wicket_kinds: nonEmpty([...new Set(state.wickets.map((w) => w.kind.toLowerCase()))]),
    legal: !state.extras.wides && !state.extras.noBalls,
    fallen_wickets: state.wickets.filter((w) => !NOT_DISMISSALS.has(w.kind.toLowerCase())).length,
  };
}
type DeliveryRow = ReturnType<typeof deliveryRow>;

const ROW_TYPES = `event_id uuid, fixture_id text, innings_id text, innings_ordinal integer, sequence_number integer,
  revision integer, over_number integer, position_in_over integer, ball_number text, striker_id text, non_striker_id text, bowler_id text,
  runs_off_bat integer, runs_extras integer, runs_total integer, runs_non_boundary boolean,
  extra_wides integer, extra_no_balls integer, extra_byes integer, extra_leg_byes integer, extra_penalty integer,
  wickets jsonb, other_participant_ids text[], wicket_kinds text[], legal boolean, fallen_wickets integer`;
const ROW_COLUMNS = ROW_TYPES.split(",")
  .map((column) => column.trim().split(/\s+/)[0])
  .join(", ");

/**
 * Totals of the given innings from their current deliveries. The lateral join keeps it to an
 * index lookup per innings: a planner guessing the JSON's row count must not choose to scan
 * every delivery of every fixture.
 */
const recomputeInnings = (tx: Tx, keys: InningsKey[]) => tx`
  update innings i
  set runs = i.penalty_runs_pre + i.penalty_runs_post + a.runs, wickets = a.wickets,
      legal_balls = a.legal_balls, deliveries = a.deliveries
  from jsonb_to_recordset(${json(tx, keys)}) as k(fixture_id text, innings_id text),
  lateral (
    select coalesce(sum(d.runs_total), 0)::int as runs, coalesce(sum(d.fallen_wickets), 0)::int as wickets,
           count(*) filter (where d.legal)::int as legal_balls, count(*)::int as deliveries
    from current_delivery d where d.fixture_id = k.fixture_id and d.innings_id = k.innings_id
  ) a
  where i.fixture_id = k.fixture_id and i.innings_id = k.innings_id`;

const addAppearances = (tx: Tx, rows: readonly DeliveryRow[]) => {
  const pairs = lastByKey(
    rows.flatMap((r) =>
      [r.striker_id, r.non_striker_id, r.bowler_id, ...(r.other_participant_ids ?? [])].map((p) => ({
        participant_id: p,
        fixture_id: r.fixture_id,
      })),
    ),
    (p) => `${p.participant_id}\u0000${p.fixture_id}`,
  );
  return tx`
    insert into appearance (participant_id, fixture_id)
    select * from jsonb_to_recordset(${json(tx, pairs)}) as r(participant_id text, fixture_id text)
    on conflict do nothing`;
};

/** After corrections a participant may no longer appear in a fixture: rebuild its appearances. */
async function recomputeAppearances(tx: Tx, fixtureIds: string[]) {
  await tx`delete from appearance where fixture_id = any(${fixtureIds})`;
  await tx`
    insert into appearance (participant_id, fixture_id)
    select distinct unnest(participant_ids), fixture_id from delivery where fixture_id = any(${fixtureIds})`;
}

const inningsKeysOf = (rows: readonly { fixture_id: string; innings_id: string }[]): InningsKey[] =>
  lastByKey(
    rows.map((r) => ({ fixture_id: r.fixture_id, innings_id: r.innings_id })),
    (k) => key(k.fixture_id, k.innings_id),
  );

export const deliveries = defineProjector({
  name: "deliveries",
  version: 2,
  description: "Innings with totals, the current revision of every delivery, and who appeared in them.",
  tables: ["innings", "delivery", "appearance"],
  ddl,
  on: {
    [InningsOpened.type]: async (tx, events) => {
      const rows = dataWithStream(events).map(({ entityId, data: d }) => ({
        fixture_id: entityId,
        innings_id: d.inningsId,
        ordinal: d.ordinal,
        batting_competitor_id: d.battingCompetitorId,
        bowling_competitor_id: d.bowlingCompetitorId,
        super_over: d.superOver,
        target: d.target,
        declared: d.declared,
        forfeited: d.forfeited,
        penalty_runs_pre: d.penaltyRuns.pre,
        penalty_runs_post: d.penaltyRuns.post,
      }));
      const unique = lastByKey(rows, (r) => key(r.fixture_id, r.innings_id));
      await tx`
        insert into innings (fixture_id, innings_id, ordinal, batting_competitor_id, bowling_competitor_id,
                             super_over, target, declared, forfeited, penalty_runs_pre, penalty_runs_post)
        select * from jsonb_to_recordset(${json(tx, unique)}) as r(
          fixture_id text, innings_id text, ordinal integer, batting_competitor_id text, bowling_competitor_id text,
          super_over boolean, target jsonb, declared boolean, forfeited boolean,
          penalty_runs_pre integer, penalty_runs_post integer)
        on conflict (fixture_id, innings_id) do update set
          ordinal = excluded.ordinal, batting_competitor_id = excluded.batting_competitor_id,
          bowling_competitor_id = excluded.bowling_competitor_id, super_over = excluded.super_over,
          target = excluded.target, declared = excluded.declared, forfeited = excluded.forfeited,
          penalty_runs_pre = excluded.penalty_runs_pre, penalty_runs_post = excluded.penalty_runs_post`;
      await recomputeInnings(tx, inningsKeysOf(unique));
    },
    [DeliveryRecorded.type]: async (tx, events) => {
      const recorded = dataWithStream(events);
      const innings = await inningsFacts(
        tx,
        inningsKeysOf(recorded.map((r) => ({ fixture_id: r.entityId, innings_id: r.data.inningsId }))),
      );
      const rows = lastByKey(
        recorded.map(({ entityId, data }) =>
          deliveryRow(entityId, data.eventId, data.sequenceNumber, 1, data, innings),
        ),
        (r) => r.event_id,
      );
      // A replayed recording never overwrites a later correction.
      await tx`
        insert into current_delivery (${tx.unsafe(ROW_COLUMNS)})
        select ${tx.unsafe(ROW_COLUMNS)} from jsonb_to_recordset(${json(tx, rows)}) as r(${tx.unsafe(ROW_TYPES)})
        on conflict (event_id) do nothing`;
      await recomputeInnings(tx, inningsKeysOf(rows));
      await addAppearances(tx, rows);
    },
    [DeliveryCorrected.type]: async (tx, events) => {
      const corrections = lastByKey(
        dataWithStream(events).sort((a, b) => a.data.revision - b.data.revision),
        (c) => c.data.eventId,
      );
      const current = await tx<{ event_id: string; fixture_id: string; innings_id: string; sequence_number: number }[]>`
        select event_id::text, fixture_id, innings_id, sequence_number
        from current_delivery where event_id = any(${corrections.map((c) => c.data.eventId)}::uuid[])`;
      const byId = new Map(current.map((r) => [r.event_id, r]));
      const known = corrections.filter((c) => byId.has(c.data.eventId));
      const innings = await inningsFacts(
        tx,
        inningsKeysOf(known.map((c) => ({ fixture_id: c.entityId, innings_id: c.data.delivery.inningsId }))),
      );
      const rows = known.map(({ entityId, data }) =>
        deliveryRow(
          entityId,
          data.eventId,
          byId.get(data.eventId)?.sequence_number ?? 0,
          data.revision,
          data.delivery,
          innings,
        ),
      );
      await tx`
        update current_delivery d set
          innings_id = r.innings_id, innings_ordinal = r.innings_ordinal, revision = r.revision,
          over_number = r.over_number, position_in_over = r.position_in_over, ball_number = r.ball_number,
          striker_id = r.striker_id, non_striker_id = r.non_striker_id, bowler_id = r.bowler_id,
          runs_off_bat = r.runs_off_bat, runs_extras = r.runs_extras, runs_total = r.runs_total,
          runs_non_boundary = r.runs_non_boundary, extra_wides = r.extra_wides, extra_no_balls = r.extra_no_balls,
          extra_byes = r.extra_byes, extra_leg_byes = r.extra_leg_byes, extra_penalty = r.extra_penalty,
          wickets = r.wickets, other_participant_ids = r.other_participant_ids, wicket_kinds = r.wicket_kinds,
          legal = r.legal, fallen_wickets = r.fallen_wickets
        from jsonb_to_recordset(${json(tx, rows)}) as r(${tx.unsafe(ROW_TYPES)})
        where d.event_id = any(${rows.map((r) => r.event_id)}::uuid[])
          and d.event_id = r.event_id and d.revision < r.revision`;
      // Both the innings a delivery left and the one it moved to (usually the same).
      await recomputeInnings(tx, inningsKeysOf([...current, ...rows]));
      await recomputeAppearances(tx, [...new Set(rows.map((r) => r.fixture_id))]);
    },
  },
});
