import { EventCatalogue, type UntypedEvent } from "../../streams/catalogue.js";
import { competitionEvents } from "../../streams/competition.js";
import { fixtureCatalogue } from "../../streams/fixture.js";
import { participantEvents } from "../../streams/participant.js";
import { ARTIFACT_SCHEMA_VERSION, type ReleaseScope } from "../../streams/release.js";
import { seasonEvents } from "../../streams/season.js";
import { teamEvents } from "../../streams/team.js";
import { venueEvents } from "../../streams/venue.js";
import type { Sql } from "../db/database.js";
import { comparePositions, type EventStore, type Position, positionToString } from "../event-store/port.js";
import { canonicalDocument } from "./canonical-document.js";
import { type FixtureRecord, fixtureRecord, referenceRecord, venueRecord } from "./records.js";

/**
 * A release's artefact as canonical JSON text, written from the log (docs/releases.md): every
 * stream of the kinds a release holds, each read on its own and folded up to the release's
 * position, so what is held at once is one stream and the ids of the streams, never the
 * data. The same position gives the same text, whenever and however often it is written.
 */

const SECTIONS = {
  competitions: { category: "competition", events: competitionEvents, fold: referenceRecord },
  participants: { category: "participant", events: participantEvents, fold: referenceRecord },
  seasons: { category: "season", events: seasonEvents, fold: referenceRecord },
  teams: { category: "team", events: teamEvents, fold: referenceRecord },
  venues: { category: "venue", events: venueEvents, fold: venueRecord },
} as const;
const CATEGORIES = ["fixture", ...Object.values(SECTIONS).map((s) => s.category)];

/** Every stream a release may hold, by category, each list in the artefact's order (by id, as JCS compares). */
export type ReleaseStreams = ReadonlyMap<string, readonly string[]>;

/**
 * The streams of the kinds a release holds, from the `stream_versions` read model: once it has
 * reached the release's position it lists every stream with an event there (streams begun
 * later are listed too, and hold nothing at the position).
 */
export async function releaseStreams(sql: Sql): Promise<ReleaseStreams> {
  const rows = await sql<{ stream_id: string; category: string }[]>`
    select stream_id, category from stream_version where category = any(${CATEGORIES})`;
  const streams = new Map<string, string[]>(CATEGORIES.map((c) => [c, []]));
  for (const { stream_id, category } of rows) streams.get(category)?.push(stream_id);
  for (const ids of streams.values()) ids.sort(byCodeUnits);
  return streams;
}

export const streamCount = (streams: ReleaseStreams) => [...streams.values()].reduce((n, ids) => n + ids.length, 0);

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => byCodeUnits(String(a.name), String(b.name));
const byLabel = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  byCodeUnits(String(a.label), String(b.label));

export type Artifact = {
  /** The text, in pieces; `onStream` is called after each stream is read. */
  text: AsyncGenerator<string>;
  /** What the text held: complete once `text` is. */
  scope(): ReleaseScope;
};

export function releaseArtifact(
  store: EventStore,
  streams: ReleaseStreams,
  release: { version: string; position: Position },
  onStream: () => Promise<void> | void = () => {},
): Artifact {
  const tally = new Tally();

  async function* records<E, R>(
    category: string,
    catalogue: { event(e: UntypedEvent): E },
    fold: (events: E[]) => R | null,
  ): AsyncGenerator<R> {
    for (const streamId of streams.get(category) ?? []) {
      const events = (await store.readStream(streamId))
        .filter((e) => comparePositions(e.position, release.position) <= 0)
        .map((e) => catalogue.event(e));
      const record = events.length > 0 ? fold(events) : null;
      await onStream();
      if (record) yield record;
    }
  }

  const reference = (key: keyof typeof SECTIONS) => {
    const { category, events, fold } = SECTIONS[key];
    const catalogue = new EventCatalogue<(typeof events)[number]>(events);
    return {
      key,
      items: tally.references(
        key,
        records(category, catalogue, fold as (events: unknown[]) => Record<string, unknown> | null),
      ),
    };
  };

  const text = canonicalDocument([
    reference("competitions"),
    reference("participants"),
    reference("seasons"),
    reference("teams"),
    reference("venues"),
    {
      key: "fixtures",
      items: tally.fixtures(records("fixture", fixtureCatalogue, fixtureRecord)),
    },
    {
      key: "release",
      value: {
        version: release.version,
        schemaVersion: ARTIFACT_SCHEMA_VERSION,
        position: positionToString(release.position),
      },
    },
  ]);
  return { text, scope: () => tally.scope() };
}

/** Counts what passes through, and keeps the few records the scope names (competitions and seasons). */
class Tally {
  private readonly counts = {
    competitions: 0,
    seasons: 0,
    teams: 0,
    venues: 0,
    participants: 0,
    fixtures: 0,
    innings: 0,
    deliveries: 0,
  };
  private readonly competitions: Record<string, unknown>[] = [];
  private readonly seasons: Record<string, unknown>[] = [];
  private readonly bySeason = new Map<string, { fixtures: number; deliveries: number }>();

  async *references(key: keyof typeof SECTIONS, records: AsyncIterable<Record<string, unknown>>) {
    for await (const record of records) {
      this.counts[key]++;
      if (key === "competitions") this.competitions.push(record);
      if (key === "seasons") this.seasons.push(record);
      yield record;
    }
  }

  async *fixtures(records: AsyncIterable<FixtureRecord>) {
    for await (const fixture of records) {
      const season = this.bySeason.get(fixture.seasonId) ?? { fixtures: 0, deliveries: 0 };
      const deliveries = fixture.innings.reduce((n, innings) => n + innings.deliveries.length, 0);
      this.bySeason.set(fixture.seasonId, {
        fixtures: season.fixtures + 1,
        deliveries: season.deliveries + deliveries,
      });
      this.counts.fixtures++;
      this.counts.innings += fixture.innings.length;
      this.counts.deliveries += deliveries;
      yield fixture;
    }
  }

  scope(): ReleaseScope {
    return {
      counts: { ...this.counts },
      competitions: this.competitions.sort(byName).map((competition) => ({
        competitionId: String(competition.competitionId),
        name: String(competition.name),
        seasons: this.seasons
          .filter((season) => season.competitionId === competition.competitionId)
          .sort(byLabel)
          .map((season) => ({
            seasonId: String(season.seasonId),
            label: String(season.label),
            ...(this.bySeason.get(String(season.seasonId)) ?? { fixtures: 0, deliveries: 0 }),
          })),
      })),
    };
  }
}
