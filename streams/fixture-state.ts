import canonicalize from "canonicalize";
import type {
  DeliveryRecorded,
  DeliveryState,
  FixtureEvent,
  FixtureScheduled,
  InningsOpened,
  OutcomeRecorded,
} from "./fixture.js";
import type { EventData } from "./types.js";
import { unreachable } from "./unreachable.js";

/** What the fixture ledger says now: folded from its events, shared by deciders. */
export type FixtureState = {
  scheduled: EventData<typeof FixtureScheduled> | null;
  sourceRevision: number | null;
  /** Each competitor's named players. */
  squads: Map<string, ReadonlySet<string>>;
  innings: Map<
    string,
    Pick<EventData<typeof InningsOpened>, "battingCompetitorId" | "bowlingCompetitorId" | "superOver">
  >;
  /** Current revision and state of every accepted delivery, by event id. */
  deliveries: Map<string, { revision: number; sequenceNumber: number; state: DeliveryState }>;
  outcome: EventData<typeof OutcomeRecorded> | null;
  /** What each batch published here, by batch reference, then item ordinal: a retry publishes none twice. */
  batchItems: Map<string, Map<number, { eventId: string; revision: number }>>;
};

export const initialFixtureState = (): FixtureState => ({
  scheduled: null,
  sourceRevision: null,
  squads: new Map(),
  innings: new Map(),
  deliveries: new Map(),
  outcome: null,
  batchItems: new Map(),
});

/** Everyone a delivery involves: striker, non-striker, bowler, players out and fielders (repeats kept). */
export const peopleIn = (d: Pick<DeliveryState, "strikerId" | "nonStrikerId" | "bowlerId" | "wickets">): string[] => [
  d.strikerId,
  d.nonStrikerId,
  d.bowlerId,
  ...d.wickets.flatMap((w) => [w.playerOutId, ...w.fielders.map((f) => f.participantId)]),
];

/** Equal as data: key order and absent-versus-undefined do not matter. */
export const sameState = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

export const deliveryState = ({
  eventId: _eventId,
  sequenceNumber: _sequenceNumber,
  submissionId: _submissionId,
  ...state
}: EventData<typeof DeliveryRecorded>): DeliveryState => state;

/** Folds one fixture event into the state. Mutates and returns `state`: folding is hot on big fixtures. */
export function evolveFixture(state: FixtureState, event: FixtureEvent): FixtureState {
  switch (event.type) {
    case "FixtureScheduled":
      state.scheduled = event.data;
      state.sourceRevision = event.data.source?.revision ?? null;
      return state;
    case "FixtureSourceRevised":
      state.sourceRevision = event.data.revision;
      return state;
    case "SquadNamed":
      state.squads.set(event.data.competitorId, new Set(event.data.participantIds));
      return state;
    case "InningsOpened": {
      const { inningsId, battingCompetitorId, bowlingCompetitorId, superOver } = event.data;
      state.innings.set(inningsId, { battingCompetitorId, bowlingCompetitorId, superOver });
      return state;
    }
    case "DeliveryRecorded":
      state.deliveries.set(event.data.eventId, {
        revision: 1,
        sequenceNumber: event.data.sequenceNumber,
        state: deliveryState(event.data),
      });
      return state;
    case "DeliveryCorrected": {
      const { eventId, revision, delivery } = event.data;
      const current = state.deliveries.get(eventId);
      if (current) state.deliveries.set(eventId, { ...current, revision, state: delivery });
      return state;
    }
    case "OutcomeRecorded":
      state.outcome = event.data;
      return state;
    case "BatchItemsPublished": {
      const published = state.batchItems.get(event.data.batchReference) ?? new Map();
      for (const { ordinal, ...item } of event.data.items) published.set(ordinal, item);
      state.batchItems.set(event.data.batchReference, published);
      return state;
    }
    // What decisions need of the fixture leaves these out: the toss and who submitted what.
    case "TossRecorded":
    case "SubmissionAccepted":
      return state;
    default:
      return unreachable(event);
  }
}
