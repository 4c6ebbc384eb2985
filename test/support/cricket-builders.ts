import { randomUUID } from "node:crypto";
import { type DeliveryState, type FixtureEvent, fixtureCatalogue } from "../../streams/fixture.js";
import { catalogue } from "../../streams/index.js";

/**
 * Fluent builders of valid cricket events (each checked with `catalogue.parse`):
 *
 *   const f = aFixture({ startDate: "2024-04-01" }).withInnings({ deliveries: 30 }).withInnings({ deliveries: 24 });
 *   await world.given(f);               // registers competition, season, teams, players, venue; then the fixture
 *   await world.append(f.correction(f.deliveries[3].eventId, { runs: { offBat: 6, extras: 0, total: 6 } }));
 *
 * Every builder's events have ids fixed when it is built, so a world appends each once even
 * when several fixtures share a team or a season.
 */
export type StreamEvent = { id: string; stream: string; type: string; data: unknown };

let sequence = 0;
const unique = (prefix: string) => `${prefix}-${(++sequence).toString(36)}${randomUUID().slice(0, 6)}`;

function event(stream: string, type: string, data: unknown): StreamEvent {
  return { id: randomUUID(), stream, type, data: catalogue.parse(type, data) };
}

/** A fixture event typed as the fixture stream's union, so deciders can fold it as given. */
function fixtureEvent(stream: string, type: FixtureEvent["type"], data: unknown) {
  return { id: randomUUID(), stream, ...fixtureCatalogue.event({ type, data }) };
}

export interface Buildable {
  events(): StreamEvent[];
}

export class CompetitionBuilder implements Buildable {
  readonly id = unique("comp");
  private readonly registered: StreamEvent[];
  constructor(
    readonly name: string,
    readonly alternativeNames: string[],
  ) {
    this.registered = [
      event(`competition-${this.id}`, "CompetitionRegistered", {
        competitionId: this.id,
        name,
        sourceIds: [`cricsheet:competition:${this.id}`],
      }),
      ...alternativeNames.map((n) =>
        event(`competition-${this.id}`, "CompetitionNameAdded", { competitionId: this.id, name: n }),
      ),
    ];
  }
  events() {
    return this.registered;
  }
}
export const aCompetition = ({ name = "Indian Premier League", alternativeNames = [] as string[] } = {}) =>
  new CompetitionBuilder(name, alternativeNames);

export class SeasonBuilder implements Buildable {
  readonly id = unique("season");
  private readonly registered: StreamEvent;
  constructor(
    readonly competition: CompetitionBuilder,
    readonly label: string,
  ) {
    this.registered = event(`season-${this.id}`, "SeasonRegistered", {
      seasonId: this.id,
      competitionId: competition.id,
      label,
    });
  }
  events() {
    return [...this.competition.events(), this.registered];
  }
}
export const aSeason = (competition = aCompetition(), { label = "2024" } = {}) => new SeasonBuilder(competition, label);

export class ParticipantBuilder implements Buildable {
  readonly id = unique("player");
  private readonly registered: StreamEvent[];
  constructor(
    readonly name: string,
    readonly alternativeNames: string[] = [],
  ) {
    this.registered = [
      event(`participant-${this.id}`, "ParticipantRegistered", {
        participantId: this.id,
        name,
        sourceIds: [`cricsheet:participant:${this.id}`],
      }),
      ...alternativeNames.map((n) =>
        event(`participant-${this.id}`, "ParticipantNameAdded", { participantId: this.id, name: n }),
      ),
    ];
  }
  events() {
    return this.registered;
  }
}
export const aParticipant = ({ name = `Player ${unique("p")}`, alternativeNames = [] as string[] } = {}) =>
  new ParticipantBuilder(name, alternativeNames);

export class TeamBuilder implements Buildable {
  readonly id = unique("team");
  readonly players: ParticipantBuilder[];
  private readonly registered: StreamEvent[];
  constructor(
    readonly name: string,
    readonly gender: "male" | "female",
    alternativeNames: string[],
  ) {
    this.players = Array.from({ length: 11 }, (_, i) => aParticipant({ name: `${name} Player ${i + 1}` }));
    this.registered = [
      event(`team-${this.id}`, "TeamRegistered", {
        teamId: this.id,
        name,
        teamType: "club",
        gender,
        sourceIds: [`cricsheet:team:${this.id}`],
      }),
      ...alternativeNames.map((n) => event(`team-${this.id}`, "TeamNameAdded", { teamId: this.id, name: n })),
    ];
  }
  events() {
    return [...this.registered, ...this.players.flatMap((p) => p.events())];
  }
}
export const aTeam = ({
  name = `Team ${unique("t")}`,
  gender = "male" as "male" | "female",
  alternativeNames = [] as string[],
} = {}) => new TeamBuilder(name, gender, alternativeNames);

export class VenueBuilder implements Buildable {
  readonly id = unique("venue");
  private readonly registered: StreamEvent;
  constructor(
    readonly name: string,
    readonly city: string | null,
  ) {
    this.registered = event(`venue-${this.id}`, "VenueRegistered", {
      venueId: this.id,
      name,
      city,
      latitude: 18.9389,
      longitude: 72.8258,
      sourceIds: [],
    });
  }
  events() {
    return [this.registered];
  }
}
export const aVenue = ({ name = "Wankhede Stadium", city = "Mumbai" as string | null } = {}) =>
  new VenueBuilder(name, city);

export const dismissalKinds = (...kinds: string[]): Buildable => {
  const events = kinds.map((term) =>
    event("vocabulary-dismissal_kind", "VocabularyTermAdded", { vocabulary: "dismissal_kind", term }),
  );
  return { events: () => events };
};

/** A delivery as the builder recorded it, kept current when the builder issues corrections. */
export type BuiltDelivery = {
  eventId: string;
  sequenceNumber: number;
  revision: number;
  inningsOrdinal: number;
  battingTeamId: string;
  state: DeliveryState;
};

export type InningsOptions = {
  deliveries?: number;
  /** Every n-th delivery takes a wicket (while batters remain). */
  wicketEvery?: number;
  /** Changes to generated deliveries, by index within the innings. */
  override?: (index: number, delivery: DeliveryState) => Partial<DeliveryState> | undefined;
  /** A super over: its innings never counts in player aggregates, and has one over. */
  superOver?: boolean;
};

const WICKET_KINDS = ["caught", "bowled", "run out", "lbw", "stumped", "caught and bowled", "retired hurt"];
const OFF_BAT = [0, 1, 4, 0, 2, 6, 1, 0, 3];

export class FixtureBuilder implements Buildable {
  readonly id = unique("fixture");
  readonly stream = `fixture-${this.id}`;
  readonly innings: { inningsId: string; ordinal: number; batting: TeamBuilder; bowling: TeamBuilder }[] = [];
  readonly deliveries: BuiltDelivery[] = [];
  private readonly setUp: StreamEvent[];
  private readonly play: StreamEvent[] = [];
  private outcome: StreamEvent | undefined;

  constructor(
    readonly season: SeasonBuilder,
    readonly home: TeamBuilder,
    readonly away: TeamBuilder,
    readonly venue: VenueBuilder | null,
    readonly startDate: string,
    readonly endDate: string,
    readonly matchType: string,
    readonly stage: string | null = null,
  ) {
    this.setUp = [
      event(this.stream, "FixtureScheduled", {
        fixtureId: this.id,
        competitionId: season.competition.id,
        seasonId: season.id,
        venueId: venue?.id ?? null,
        competitors: [home, away].map((t) => ({ competitorId: t.id, name: t.name })),
        startDate,
        endDate,
        matchType,
        teamType: "club",
        gender: home.gender,
        ballsPerOver: 6,
        oversPerInnings: matchType === "Test" ? null : matchType === "ODI" ? 50 : 20,
        stage,
        matchNumber: stage ? null : 1,
        source: { sourceId: `cricsheet:match:${this.id}`, revision: 1, dataVersion: "1.1.0", createdOn: startDate },
      }),
      ...[home, away].map((t) =>
        event(this.stream, "SquadNamed", { competitorId: t.id, participantIds: t.players.map((p) => p.id) }),
      ),
      event(this.stream, "TossRecorded", { winnerId: home.id, decision: "bat" }),
    ];
  }

  get competition() {
    return this.season.competition;
  }

  /** Opens the next innings (batting alternates, home first) and records its deliveries. */
  withInnings(options: InningsOptions = {}): this {
    const ordinal = this.innings.length;
    const [batting, bowling] = ordinal % 2 === 0 ? [this.home, this.away] : [this.away, this.home];
    const inningsId = `${this.id}-innings-${ordinal + 1}`;
    this.innings.push({ inningsId, ordinal, batting, bowling });
    this.play.push(
      event(this.stream, "InningsOpened", {
        inningsId,
        ordinal,
        battingCompetitorId: batting.id,
        bowlingCompetitorId: bowling.id,
        superOver: options.superOver ?? false,
        target: ordinal === 1 ? { runs: 150, overs: 20 } : null,
        declared: false,
        forfeited: false,
        penaltyRuns: { pre: 0, post: 0 },
        absentHurtIds: [],
        miscountedOvers: [],
      }),
    );
    this.play.push(...this.record(ordinal, options));
    return this;
  }

  /** More deliveries at the end of an innings already opened (for "a new event arrives"). */
  moreDeliveries(ordinal: number, count: number): StreamEvent[] {
    return this.record(ordinal, { deliveries: count });
  }

  withOutcome(): this {
    this.outcome = event(this.stream, "OutcomeRecorded", {
      result: "won",
      winnerId: this.home.id,
      by: { runs: 12 },
      method: null,
      tieBreakWinnerId: null,
      tieBreak: null,
      playerOfMatchIds: [this.home.players[0]?.id],
    });
    return this;
  }

  /** The fixture scheduled again from another date (a second FixtureScheduled, replacing the first). */
  scheduledAgain(startDate: string, endDate = startDate): StreamEvent[] {
    const [scheduled] = this.setUp as [StreamEvent];
    return [event(this.stream, "FixtureScheduled", { ...(scheduled.data as object), startDate, endDate })];
  }

  /** A DeliveryCorrected with the next revision, replacing the given fields of the delivery's state. */
  correction(eventId: string, changes: Partial<DeliveryState>, reason = "scorer's correction") {
    const delivery = this.deliveries.find((d) => d.eventId === eventId);
    if (!delivery) throw new Error(`no delivery ${eventId} in ${this.id}`);
    delivery.revision += 1;
    delivery.state = { ...delivery.state, ...changes };
    const moved = this.innings.find((i) => i.inningsId === delivery.state.inningsId);
    if (moved) {
      delivery.inningsOrdinal = moved.ordinal;
      delivery.battingTeamId = moved.batting.id;
    }
    return [
      fixtureEvent(this.stream, "DeliveryCorrected", {
        eventId,
        revision: delivery.revision,
        reason,
        delivery: delivery.state,
      }),
    ];
  }

  /** The fixture's own stream, as its events' union (each checked by the fixture's catalogue). */
  ledger(): FixtureEvent[] {
    return this.events()
      .filter((e) => e.stream === this.stream)
      .map((e) => fixtureCatalogue.event(e));
  }

  /** Reference data first (competition, season, teams, players, venue), then the fixture's own stream. */
  events(): StreamEvent[] {
    return [
      ...this.season.events(),
      ...this.home.events(),
      ...this.away.events(),
      ...(this.venue?.events() ?? []),
      ...this.setUp,
      ...this.play,
      ...(this.outcome ? [this.outcome] : []),
    ];
  }

  /** The current deliveries in occurrence order (innings ordinal, then sequence number). */
  inOccurrenceOrder(): BuiltDelivery[] {
    return [...this.deliveries].sort(
      (a, b) => a.inningsOrdinal - b.inningsOrdinal || a.sequenceNumber - b.sequenceNumber,
    );
  }

  private record(ordinal: number, { deliveries = 24, wicketEvery = 9, override }: InningsOptions): StreamEvent[] {
    const innings = this.innings[ordinal];
    if (!innings) throw new Error(`innings ${ordinal} is not open`);
    const { inningsId, batting, bowling } = innings;
    const previous = this.deliveries.filter((d) => d.inningsOrdinal === ordinal);
    const out = new Set(previous.flatMap((d) => d.state.wickets.map((w) => w.playerOutId)));
    const available = batting.players.filter((p) => !out.has(p.id)).map((p) => p.id);
    let [striker, nonStriker] = [available[0] as string, available[1] as string];
    let nextBatter = 2;
    let legalBalls = previous.filter((d) => !d.state.extras.wides && !d.state.extras.noBalls).length;
    let positionInOver = 0;
    let lastOver = -1;
    const events: StreamEvent[] = [];
    for (let i = 0; i < deliveries; i++) {
      const overNumber = Math.floor(legalBalls / 6);
      if (overNumber !== lastOver) {
        positionInOver = 0;
        if (lastOver >= 0) [striker, nonStriker] = [nonStriker, striker];
        lastOver = overNumber;
      }
      const bowler = bowling.players[6 + (overNumber % 5)]?.id as string;
      const n = previous.length + i;
      let state: DeliveryState = {
        inningsId,
        overNumber,
        positionInOver,
        ballNumber: `${overNumber}.${(legalBalls % 6) + 1}`,
        strikerId: striker,
        nonStrikerId: nonStriker,
        bowlerId: bowler,
        runs: {
          offBat: OFF_BAT[n % OFF_BAT.length] as number,
          extras: 0,
          total: OFF_BAT[n % OFF_BAT.length] as number,
        },
        extras: {},
        wickets: [],
      };
      if (n % 11 === 5) state = { ...state, runs: { offBat: 0, extras: 1, total: 1 }, extras: { wides: 1 } };
      else if (n % 13 === 7) state = { ...state, runs: { offBat: 0, extras: 1, total: 1 }, extras: { legByes: 1 } };
      else if (n % 17 === 9) state = { ...state, runs: { offBat: 1, extras: 1, total: 2 }, extras: { noBalls: 1 } };
      else if (n % 19 === 2) state = { ...state, runs: { offBat: 4, extras: 0, total: 4, nonBoundary: true } };
      else if (n % wicketEvery === wicketEvery - 1 && nextBatter < available.length) {
        const kind = WICKET_KINDS[Math.floor(n / wicketEvery) % WICKET_KINDS.length] as string;
        const fielder = (k: number) => ({ participantId: bowling.players[k]?.id as string, substitute: false });
        const fielders =
          kind === "caught"
            ? [fielder(n % 6)]
            : kind === "run out"
              ? [fielder(2), fielder(0)]
              : kind === "stumped"
                ? [fielder(0)]
                : [];
        state = {
          ...state,
          runs: { offBat: 0, extras: 0, total: 0 },
          wickets: [{ kind, playerOutId: striker, fielders }],
        };
      }
      state = { ...state, ...override?.(n, state) };
      const eventId = randomUUID();
      const sequenceNumber = n + 1;
      events.push(event(this.stream, "DeliveryRecorded", { ...state, eventId, sequenceNumber, submissionId: null }));
      this.deliveries.push({
        eventId,
        sequenceNumber,
        revision: 1,
        inningsOrdinal: ordinal,
        battingTeamId: batting.id,
        state,
      });
      for (const wicket of state.wickets) {
        if (wicket.playerOutId === striker) striker = available[nextBatter++] ?? striker;
      }
      if (state.runs.offBat % 2 === 1) [striker, nonStriker] = [nonStriker, striker];
      positionInOver++;
      if (!state.extras.wides && !state.extras.noBalls) legalBalls++;
    }
    return events;
  }
}

export type FixtureOptions = {
  season?: SeasonBuilder;
  home?: TeamBuilder;
  away?: TeamBuilder;
  venue?: VenueBuilder | null;
  startDate?: string;
  endDate?: string;
  matchType?: "T20" | "ODI" | "Test";
  gender?: "male" | "female";
  stage?: string | null;
};

export const aFixture = ({
  season,
  gender = "male",
  home = aTeam({ gender }),
  away = aTeam({ gender }),
  venue = aVenue(),
  startDate = "2024-04-01",
  endDate = startDate,
  matchType = "T20",
  stage = null,
}: FixtureOptions = {}) =>
  new FixtureBuilder(season ?? aSeason(), home, away, venue, startDate, endDate, matchType, stage);
