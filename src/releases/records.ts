import type { CompetitionEvent } from "../../streams/competition.js";
import type { DeliveryState, FixtureEvent, InningsOpened } from "../../streams/fixture.js";
import type { ParticipantEvent } from "../../streams/participant.js";
import type { SeasonEvent } from "../../streams/season.js";
import type { TeamEvent } from "../../streams/team.js";
import type { EventData } from "../../streams/types.js";
import { unreachable } from "../../streams/unreachable.js";
import type { VenueEvent } from "../../streams/venue.js";
import { evolveVenue, initialVenueState } from "../../streams/venue-state.js";

/**
 * The records of a release's artefact (docs/releases.md, "The artefact"): each stream's
 * events up to the release's position folded into what it says then. Pure.
 */

type ReferenceEvent = CompetitionEvent | SeasonEvent | TeamEvent | ParticipantEvent;

/**
 * A competition, season, team or participant: its registration, with the names added since
 * as `otherNames` in the order they were added. null for a stream without one.
 */
export function referenceRecord(events: readonly ReferenceEvent[]): Record<string, unknown> | null {
  const [registered, ...later] = events;
  if (!registered?.type.endsWith("Registered")) return null;
  if (registered.type === "SeasonRegistered") return { ...registered.data };
  const otherNames = later.flatMap((e) => ("name" in e.data && e.type.endsWith("NameAdded") ? [e.data.name] : []));
  return { ...registered.data, otherNames };
}

/**
 * A venue as its registration and the changes since say: renamed, with other spellings, and
 * its coordinates while they hold. null for a stream without a registration.
 */
export const venueRecord = (events: readonly VenueEvent[]): Record<string, unknown> | null =>
  events.reduce(evolveVenue, initialVenueState());

type Delivery = Omit<DeliveryState, "inningsId"> & { eventId: string; revision: number; sequenceNumber: number };

/**
 * A fixture as its ledger says: set-up, squads, toss, result, and each innings with its
 * deliveries as their current revisions, in occurrence order. null for a stream without a
 * `FixtureScheduled`.
 */
export function fixtureRecord(events: readonly FixtureEvent[]) {
  const [scheduled] = events;
  if (scheduled?.type !== "FixtureScheduled") return null;
  let source = scheduled.data.source;
  const squads = new Map<string, string[]>();
  let toss: unknown = null;
  let outcome: unknown = null;
  const innings = new Map<string, EventData<typeof InningsOpened>>();
  const deliveries = new Map<string, { inningsId: string; delivery: Delivery }>();
  for (const event of events.slice(1)) {
    switch (event.type) {
      case "SquadNamed":
        squads.set(event.data.competitorId, event.data.participantIds);
        break;
      case "TossRecorded":
        toss = event.data;
        break;
      case "OutcomeRecorded":
        outcome = event.data;
        break;
      case "InningsOpened":
        innings.set(event.data.inningsId, event.data);
        break;
      case "DeliveryRecorded": {
        const { inningsId, submissionId: _, ...delivery } = event.data;
        deliveries.set(delivery.eventId, { inningsId, delivery: { ...delivery, revision: 1 } });
        break;
      }
      case "DeliveryCorrected": {
        const { eventId, revision, delivery } = event.data;
        const recorded = deliveries.get(eventId);
        if (!recorded) break;
        const { inningsId, ...corrected } = delivery;
        deliveries.set(eventId, {
          inningsId,
          delivery: { ...corrected, eventId, revision, sequenceNumber: recorded.delivery.sequenceNumber },
        });
        break;
      }
      case "FixtureSourceRevised":
        if (source) source = { ...source, ...event.data };
        break;
      // Provenance, not data: the protected provenance routes hold it.
      case "FixtureScheduled":
      case "SubmissionAccepted":
      case "BatchItemsPublished":
        break;
      default:
        unreachable(event);
    }
  }
  const byInnings = new Map<string, Delivery[]>();
  for (const { inningsId, delivery } of deliveries.values()) {
    const list = byInnings.get(inningsId);
    if (list) list.push(delivery);
    else byInnings.set(inningsId, [delivery]);
  }
  return {
    ...scheduled.data,
    source,
    squads: scheduled.data.competitors.map(({ competitorId }) => ({
      competitorId,
      participantIds: squads.get(competitorId) ?? [],
    })),
    toss,
    outcome,
    innings: [...innings.values()]
      .sort((a, b) => a.ordinal - b.ordinal)
      .map((opened) => ({
        ...opened,
        deliveries: (byInnings.get(opened.inningsId) ?? []).sort((a, b) => a.sequenceNumber - b.sequenceNumber),
      })),
  };
}
export type FixtureRecord = NonNullable<ReturnType<typeof fixtureRecord>>;
