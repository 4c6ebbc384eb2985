import canonicalize from "canonicalize";
import type {
  DeliveryRecorded,
  DeliveryState,
  FixtureScheduled,
  InningsOpened,
  OutcomeRecorded,
  SquadNamed,
} from "./fixture.js";
import type { EventData } from "./types.js";

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
};

export const initialFixtureState = (): FixtureState => ({
  scheduled: null,
  sourceRevision: null,
  squads: new Map(),
  innings: new Map(),
  deliveries: new Map(),
  outcome: null,
});

/** Equal as data: key order and absent-versus-undefined do not matter. */
export const sameState = (a: unknown, b: unknown) => canonicalize(a) === canonicalize(b);

export const deliveryState = ({
  eventId: _eventId,
  sequenceNumber: _sequenceNumber,
  submissionId: _submissionId,
  ...state
}: EventData<typeof DeliveryRecorded>): DeliveryState => state;

/** Folds one fixture event into the state. Mutates and returns `state`: folding is hot on big fixtures. */
export function evolveFixture(state: FixtureState, event: { type: string; data: unknown }): FixtureState {
  const data = event.data as never;
  switch (event.type) {
    case "FixtureScheduled": {
      const scheduled = data as EventData<typeof FixtureScheduled>;
      state.scheduled = scheduled;
      state.sourceRevision = scheduled.source?.revision ?? null;
      return state;
    }
    case "FixtureSourceRevised":
      state.sourceRevision = (data as { revision: number }).revision;
      return state;
    case "SquadNamed": {
      const squad = data as EventData<typeof SquadNamed>;
      state.squads.set(squad.competitorId, new Set(squad.participantIds));
      return state;
    }
    case "InningsOpened": {
      const { inningsId, battingCompetitorId, bowlingCompetitorId, superOver } = data as EventData<
        typeof InningsOpened
      >;
      state.innings.set(inningsId, { battingCompetitorId, bowlingCompetitorId, superOver });
      return state;
    }
    case "DeliveryRecorded": {
      const recorded = data as EventData<typeof DeliveryRecorded>;
      state.deliveries.set(recorded.eventId, {
        revision: 1,
        sequenceNumber: recorded.sequenceNumber,
        state: deliveryState(recorded),
      });
      return state;
    }
    case "DeliveryCorrected": {
      const corrected = data as { eventId: string; revision: number; delivery: DeliveryState };
      const current = state.deliveries.get(corrected.eventId);
      if (current)
        state.deliveries.set(corrected.eventId, {
          ...current,
          revision: corrected.revision,
          state: corrected.delivery,
        });
      return state;
    }
    case "OutcomeRecorded":
      state.outcome = data as EventData<typeof OutcomeRecorded>;
      return state;
    default:
      return state;
  }
}
