import {
  BatchItemsPublished,
  DeliveryCorrected,
  DeliveryRecorded,
  type DeliveryState,
  FixtureScheduled,
  FixtureSourceRevised,
  InningsOpened,
  SubmissionAccepted,
} from "../../streams/fixture.js";
import { deliveryState } from "../../streams/fixture-state.js";
import type { Tx } from "../db/database.js";
import type { RecordedEvent } from "../event-store/port.js";
import { type RefreshScope, refreshedScopes, type ScopeFacts } from "../submissions/scopes.js";
import { defineProjector } from "./projector.js";
import {
  type BatchSource,
  byImport,
  correctionSource,
  cricsheetSource,
  fixtureSources,
  type StoredSource,
} from "./revision-sources.js";
import { dataWithStream, deliveryKey, fixtureValues, json, lastByKey, streamEntityId, withoutNulls } from "./rows.js";

/**
 * The audit history of every delivery: one row per revision, as recorded or corrected, with
 * who made it, when, why, the whole state, where it was first submitted, where the revision
 * itself came from (its source: see revision-sources.ts) and, for a correction, the
 * statistics scopes it refreshed. Beside it, the record of every direct submission, for
 * submission provenance. A batch publication's record (BatchItemsPublished) precedes the
 * revisions it makes in the same append, as a submission's does, and names their items.
 *
 * The scopes are computed when the correction is applied, from what this projector keeps of
 * the fixture (season, competition, which innings are super overs), so the history never
 * reads another read model or the event store. Positions in a submission are kept as the
 * SubmissionAccepted that precedes its deliveries in the same append names them.
 *
 * Every statement takes a run of events as one JSON parameter, and revisions are keyed by
 * (event id, revision) and never added twice: replaying a run changes nothing.
 */
/** A kept revision's fields, as `jsonb_to_recordset` unfolds them (the view below, `revisionRows`). */
export const REVISION_FIELDS = `revision integer, revision_event_id uuid, sequence_number integer, actor text,
  occurred_at text, reason text, state jsonb, submission_id text, position integer, refreshed_scopes jsonb, source jsonb`;

const ddl = `
  create table history_fixture (
    fixture_id text primary key,
    season_id text not null,
    competition_id text not null,
    -- the Cricsheet file as its latest revision names it (CricsheetSource); null for none
    source jsonb
  );
  create table history_innings (
    fixture_id text not null,
    innings_id text not null,
    super_over boolean not null,
    primary key (fixture_id, innings_id)
  );
  -- each revision a batch publication made, with the item and its approval (BatchSource)
  create table batch_revision (
    event_id uuid not null,
    revision integer not null,
    source jsonb not null,
    primary key (event_id, revision)
  );
  create table submitted_position (
    event_id uuid primary key,
    submission_id text not null,
    position integer not null
  );
  -- every revision of every delivery of a fixture, {eventId: [revision, ...]}, each revision
  -- with the columns of delivery_revision below. One value a fixture is
  -- compressed (TOAST): a row a revision, stored as is, was about four times the size.
  create table history_revisions (
    fixture_id text primary key,
    -- the fixture's number in history_delivery, a quarter of a million rows where its
    -- 36-character id took 10 MB of the IPL's
    fixture_key integer generated always as identity unique,
    revisions jsonb not null
  );
  -- which fixture holds a delivery's revisions
  create table history_delivery (event_id uuid primary key, fixture_key integer not null);
  create view delivery_revision as
    select d.event_id, r.revision,
      -- the DeliveryRecorded or DeliveryCorrected that holds this revision
      r.revision_event_id, h.fixture_id, r.sequence_number, r.actor,
      -- verbatim from the event's metadata: the history answers it as recorded
      r.occurred_at,
      -- null for revision 1
      r.reason,
      -- the delivery's fields as in DeliveryState (without event id and sequence number)
      r.state,
      -- where the delivery was first submitted; null for imported data
      r.submission_id, r.position,
      -- [RefreshScope]; null for revision 1
      r.refreshed_scopes,
      -- where this revision came from (StoredSource); null when the log names no source
      r.source
    from history_delivery d
    join history_revisions h on h.fixture_key = d.fixture_key
    cross join lateral jsonb_to_recordset(h.revisions -> d.event_id::text) as r(${REVISION_FIELDS});
  create table submission_record (
    submission_id text primary key,
    fixture_id text not null,
    submitter_id text not null,
    received_at text not null,
    schema_version text not null,
    payload_sha256 text not null,
    -- [event id], in submitted order
    event_ids jsonb not null,
    -- {filename, mediaType, byteLength, sha256}; null for a JSON body
    upload jsonb
  );`;

type Revision = {
  event_id: string;
  revision: number;
  revision_event_id: string;
  fixture_id: string;
  sequence_number: number;
  actor: string;
  occurred_at: string;
  reason: string | null;
  state: DeliveryState;
  submission_id: string | null;
  position: number | null;
  refreshed_scopes: RefreshScope[] | null;
  source: StoredSource | null;
};

const origin = (e: RecordedEvent) => ({
  revision_event_id: e.id,
  fixture_id: streamEntityId(e.streamId),
  actor: e.metadata.actor,
  occurred_at: e.metadata.occurredAt,
});

/** The season, competition and innings of the given fixtures, as refreshedScopes needs them. */
async function scopeFacts(tx: Tx, fixtureIds: string[]): Promise<Map<string, ScopeFacts>> {
  const fixtures = await tx<{ fixture_id: string; season_id: string; competition_id: string }[]>`
    select fixture_id, season_id, competition_id from history_fixture where fixture_id = any(${fixtureIds})`;
  const innings = await tx<{ fixture_id: string; innings_id: string; super_over: boolean }[]>`
    select fixture_id, innings_id, super_over from history_innings where fixture_id = any(${fixtureIds})`;
  const facts = new Map<string, { scheduled: ScopeFacts["scheduled"]; innings: Map<string, { superOver: boolean }> }>(
    fixtureIds.map((id) => [id, { scheduled: null, innings: new Map() }]),
  );
  for (const f of fixtures) {
    const fixture = facts.get(f.fixture_id);
    if (fixture) fixture.scheduled = { seasonId: f.season_id, competitionId: f.competition_id };
  }
  for (const i of innings) facts.get(i.fixture_id)?.innings.set(i.innings_id, { superOver: i.super_over });
  return facts;
}

/** The revisions of the run a batch publication made, by `<event id>:<revision>`. */
async function batchRevisions(tx: Tx, keys: { event_id: string; revision: number }[]) {
  if (keys.length === 0) return new Map<string, BatchSource>();
  const rows = await tx<{ key: string; source: BatchSource }[]>`
    select b.event_id::text || ':' || b.revision as key, b.source
    from jsonb_to_recordset(${json(tx, keys)}) as k(event_id uuid, revision integer)
    join batch_revision b on b.event_id = k.event_id and b.revision = k.revision`;
  return new Map(rows.map((r) => [r.key, r.source]));
}

/**
 * The revision each correction of the run replaces: the highest stored one below the first
 * correction of that delivery in the run (later ones replace the run's own rows).
 */
async function revisionsBefore(tx: Tx, firsts: { event_id: string; revision: number }[]): Promise<Revision[]> {
  return tx<Revision[]>`
    select h.event_id::text, h.revision, h.revision_event_id::text, h.fixture_id, h.sequence_number, h.actor,
           h.occurred_at, h.reason, h.state, h.submission_id, h.position, h.refreshed_scopes, h.source
    from jsonb_to_recordset(${json(tx, firsts)}) as k(event_id uuid, revision integer),
    lateral (
      select * from delivery_revision d where d.event_id = k.event_id and d.revision < k.revision
      order by d.revision desc limit 1
    ) h`;
}

export const deliveryHistory = defineProjector({
  name: "delivery_history",
  // 2: each revision's source, the fixtures' Cricsheet sources and the submission records.
  // 3: batch publications as a source. 4: a fixture's revisions kept as one value. 5: without
  // their event and fixture ids, which the value's keys hold. 6: a delivery's fixture by number.
  version: 6,
  description:
    "Every revision of every delivery: who recorded or corrected it, when, why, from what source (a Cricsheet file, a submission, a batch item and its approval, a correction), and what it refreshed; every direct submission.",
  // history_delivery and history_revisions for readers of many deliveries at once
  // (revisionRows), which unpack each fixture's value once.
  tables: ["delivery_revision", "submission_record", "history_delivery", "history_revisions"],
  ddl,
  on: {
    [FixtureScheduled.type]: (tx, events) => {
      const rows = lastByKey(
        events.map(({ data: d }) => ({
          fixture_id: d.fixtureId,
          season_id: d.seasonId,
          competition_id: d.competitionId,
          source: d.source && cricsheetSource(d.source),
        })),
        (r) => r.fixture_id,
      );
      return tx`
        insert into history_fixture
        select * from jsonb_to_recordset(${json(tx, rows)})
          as r(fixture_id text, season_id text, competition_id text, source jsonb)
        on conflict (fixture_id) do update
          set season_id = excluded.season_id, competition_id = excluded.competition_id, source = excluded.source`;
    },
    [FixtureSourceRevised.type]: (tx, events) => {
      const rows = lastByKey(
        dataWithStream(events).map(({ entityId, data }) => ({
          fixture_id: entityId,
          revised: { revision: data.revision, createdOn: data.createdOn, dataVersion: data.dataVersion ?? null },
        })),
        (r) => r.fixture_id,
      );
      return tx`
        update history_fixture f set source = f.source || r.revised
        from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, revised jsonb)
        where f.fixture_id = r.fixture_id and f.source is not null`;
    },
    [InningsOpened.type]: (tx, events) => {
      const rows = lastByKey(
        dataWithStream(events).map(({ entityId, data }) => ({
          fixture_id: entityId,
          innings_id: data.inningsId,
          super_over: data.superOver,
        })),
        (r) => `${r.fixture_id}\u0000${r.innings_id}`,
      );
      return tx`
        insert into history_innings
        select * from jsonb_to_recordset(${json(tx, rows)}) as r(fixture_id text, innings_id text, super_over boolean)
        on conflict (fixture_id, innings_id) do update set super_over = excluded.super_over`;
    },
    [SubmissionAccepted.type]: async (tx, events) => {
      const rows = events.flatMap(({ data: d }) =>
        d.eventIds.map((eventId, position) => ({ event_id: eventId, submission_id: d.submissionId, position })),
      );
      await tx`
        insert into submitted_position
        select * from jsonb_to_recordset(${json(tx, rows)}) as r(event_id uuid, submission_id text, position integer)
        on conflict (event_id) do nothing`;
      const records = dataWithStream(events).map(({ entityId, data: d }) => ({
        submission_id: d.submissionId,
        fixture_id: entityId,
        submitter_id: d.submitterId,
        received_at: d.receivedAt,
        schema_version: d.schemaVersion,
        payload_sha256: d.payloadSha256,
        event_ids: d.eventIds,
        upload: d.upload,
      }));
      await tx`
        insert into submission_record
        select * from jsonb_to_recordset(${json(tx, records)}) as r(
          submission_id text, fixture_id text, submitter_id text, received_at text, schema_version text,
          payload_sha256 text, event_ids jsonb, upload jsonb)
        on conflict (submission_id) do nothing`;
    },
    [BatchItemsPublished.type]: (tx, events) => {
      const rows = events.flatMap(({ data: d }) => {
        const reviews = new Map(d.reviews.flatMap(({ ordinals, ...review }) => ordinals.map((o) => [o, review])));
        // Publication records the approval of every item it publishes.
        return d.items.flatMap(({ ordinal, eventId, revision }) => {
          const review = reviews.get(ordinal);
          if (!review) return [];
          const source: BatchSource = { kind: "batch", batchReference: d.batchReference, ordinal, review };
          return [{ event_id: eventId, revision, source }];
        });
      });
      return tx`
        insert into batch_revision
        select * from jsonb_to_recordset(${json(tx, rows)}) as r(event_id uuid, revision integer, source jsonb)
        on conflict (event_id, revision) do nothing`;
    },
    [DeliveryRecorded.type]: async (tx, events) => {
      const recorded = lastByKey(events, (e) => deliveryKey(e.data.eventId));
      // The import's recordings are never a submission's or a batch item's: only others are looked up.
      const others = recorded.filter((e) => !byImport(e.metadata.actor)).map((e) => deliveryKey(e.data.eventId));
      const positions = await submittedPositions(tx, others);
      const batches = await batchRevisions(
        tx,
        others.map((event_id) => ({ event_id, revision: 1 })),
      );
      const sources = await fixtureSources(tx, [...new Set(recorded.map((e) => streamEntityId(e.streamId)))]);
      const rows = recorded.map((e): Revision => {
        const eventId = deliveryKey(e.data.eventId);
        const fixtureId = streamEntityId(e.streamId);
        const submitted = positions.get(eventId);
        // Each field named, not spread from `origin`: with a spread first this map took 1.4 s of
        // the 9 s of JavaScript this projector spends on the IPL, and its rows serialised slower.
        return {
          event_id: eventId,
          revision: 1,
          revision_event_id: e.id,
          fixture_id: fixtureId,
          actor: e.metadata.actor,
          occurred_at: e.metadata.occurredAt,
          sequence_number: e.data.sequenceNumber,
          reason: null,
          state: deliveryState(e.data),
          submission_id: submitted?.submission_id ?? null,
          position: submitted?.position ?? null,
          refreshed_scopes: null,
          // A recording is its submission's or its batch item's, else the import's: the fixture's source as it stands.
          source: submitted
            ? { kind: "submission", submissionId: submitted.submission_id, position: submitted.position }
            : (batches.get(`${eventId}:1`) ?? (byImport(e.metadata.actor) ? (sources.get(fixtureId) ?? null) : null)),
        };
      });
      await addRevisions(tx, rows);
      const located = rows.map(({ event_id, fixture_id }) => ({ event_id, fixture_id }));
      await tx`
        insert into history_delivery
        select r.event_id, h.fixture_key
        from jsonb_to_recordset(${json(tx, located)}) as r(event_id uuid, fixture_id text)
          join history_revisions h on h.fixture_id = r.fixture_id
        on conflict (event_id) do nothing`;
    },
    [DeliveryCorrected.type]: async (tx, events) => {
      const run = events.map((e) => ({ ...origin(e), data: { ...e.data, eventId: deliveryKey(e.data.eventId) } }));
      const firsts = new Map<string, number>();
      for (const { data } of run) if (!firsts.has(data.eventId)) firsts.set(data.eventId, data.revision);
      const before = await revisionsBefore(
        tx,
        [...firsts].map(([event_id, revision]) => ({ event_id, revision })),
      );
      const current = new Map(before.map((r) => [r.event_id, r]));
      const fixtureIds = [...new Set(run.map((c) => c.fixture_id))];
      const facts = await scopeFacts(tx, fixtureIds);
      const sources = await fixtureSources(tx, fixtureIds);
      const batches = await batchRevisions(
        tx,
        run.filter((c) => !byImport(c.actor)).map(({ data }) => ({ event_id: data.eventId, revision: data.revision })),
      );
      const rows: Revision[] = [];
      for (const { data, ...meta } of run) {
        const previous = current.get(data.eventId);
        // A correction of a delivery never recorded has no history to extend.
        if (!previous || previous.revision >= data.revision) continue;
        const row: Revision = {
          ...meta,
          event_id: data.eventId,
          revision: data.revision,
          sequence_number: previous.sequence_number,
          reason: data.reason,
          state: data.delivery,
          submission_id: previous.submission_id,
          position: previous.position,
          refreshed_scopes: refreshedScopes(meta.fixture_id, facts.get(meta.fixture_id) as ScopeFacts, [
            previous.state,
            data.delivery,
          ]),
          source:
            batches.get(`${data.eventId}:${data.revision}`) ??
            correctionSource(meta.actor, sources.get(meta.fixture_id) ?? null),
        };
        rows.push(row);
        current.set(data.eventId, row);
      }
      await addRevisions(tx, rows);
    },
  },
});

/**
 * Adds revisions to the deliveries' histories, each run's in revision order after those
 * kept; a revision already kept (a replayed run) is left as it is. Readers order by revision.
 */
function addRevisions(tx: Tx, rows: readonly Revision[]) {
  const byFixture = fixtureValues(
    rows,
    (r) => ({ fixtureId: r.fixture_id, eventId: r.event_id }),
    // The keys say whose revisions they are; kept in each as well, they took a sixth of the
    // value. Nulls are left out (jsonb_to_recordset reads a missing field as null): a ninth.
    (mine) => mine.map(({ event_id, fixture_id, ...kept }) => withoutNulls(kept)),
  );
  return tx`
    insert into history_revisions as h (fixture_id, revisions)
    select * from jsonb_to_recordset(${json(tx, byFixture)}) as r(fixture_id text, value jsonb)
    on conflict (fixture_id) do update set revisions = h.revisions || (
      select coalesce(jsonb_object_agg(added.key, kept.revisions || (
        select coalesce(jsonb_agg(n order by (n ->> 'revision')::int), '[]')
        from jsonb_array_elements(added.value) n
        where not kept.revisions @> jsonb_build_array(jsonb_build_object('revision', n -> 'revision')))), '{}')
      from jsonb_each(excluded.revisions) added,
      lateral (select coalesce(h.revisions -> added.key, '[]') as revisions) kept)`;
}

/** Where each of the deliveries was first submitted, for those a submission holds. */
type SubmittedPosition = { event_id: string; submission_id: string; position: number };

async function submittedPositions(tx: Tx, eventIds: string[]) {
  if (eventIds.length === 0) return new Map<string, SubmittedPosition>();
  const rows = await tx<SubmittedPosition[]>`
    select event_id::text, submission_id, position from submitted_position where event_id = any(${eventIds}::uuid[])`;
  return new Map(rows.map((r) => [r.event_id, r]));
}
