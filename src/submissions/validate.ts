import type { FixtureState } from "../../streams/fixture-state.js";
import type { Problem } from "../commands/errors.js";
import { bodyLocation, type Location, zodDetails } from "../commands/problems.js";
import {
  type CorrectionRequest,
  correctionRequestSchema,
  type DirectSubmission,
  type SubmittedEvent,
  submissionEnvelopeSchema,
  submittedEventSchema,
} from "./schema.js";

/**
 * Every detectable problem of a submission or a correction, in one pass: the structure of
 * each value (schema.ts) and what it says about the ledger (this file). An event that is
 * malformed in one field is still checked in its others, so the answer lists everything.
 */

/** What the ledger holds that the checks consult, read once per request (`facts.ts`). */
export type LedgerFacts = {
  /** The fixture as its stream stands; null when there is no such fixture. */
  fixture: FixtureState | null;
  dismissalKinds: ReadonlySet<string>;
  /** Participants that exist anywhere: a substitute fielder need not be in the squad. */
  registered: ReadonlySet<string>;
  /** Event ids of this request already accepted, in any fixture (lower case). */
  accepted: ReadonlySet<string>;
};

export type Checked<T> = { ok: true; value: T } | { ok: false; details: Problem[] };

/** The ids a request names, so `facts.ts` reads only what the checks need. */
export function namedIds(body: unknown): { fixtureId?: string; eventIds: string[]; participantIds: string[] } {
  const top = record(body);
  const events = Array.isArray(top?.events) ? top.events : top?.event !== undefined ? [top.event] : [];
  return {
    fixtureId: text(top?.fixtureId),
    eventIds: events.flatMap((e) => text(record(e)?.eventId)?.toLowerCase() ?? []),
    participantIds: events.flatMap((e) =>
      wicketsOf(record(e)).flatMap((w) => fieldersOf(w).flatMap((f) => f.id ?? [])),
    ),
  };
}

export function checkSubmission(body: unknown, facts: LedgerFacts): Checked<DirectSubmission> {
  const envelope = submissionEnvelopeSchema.safeParse(body);
  const details = envelope.success ? [] : zodDetails(envelope.error, bodyLocation);
  const events = Array.isArray(record(body)?.events) ? (record(body)?.events as unknown[]) : [];
  // Past the limit only the count is reported: checking an unbounded list is the attack.
  const checkable = envelope.success || (details.every((d) => d.field !== "events") && events.length > 0);
  const parsed: SubmittedEvent[] = [];
  if (checkable) {
    const fixture = inFixture(record(body)?.fixtureId, facts, details);
    events.forEach((raw, eventIndex) => {
      const at = (path: string) => ({ field: path, eventIndex });
      const result = submittedEventSchema.safeParse(raw);
      if (result.success) parsed.push(result.data);
      else details.push(...zodDetails(result.error, (path) => at(path.join("."))));
      if (fixture) details.push(...deliveryProblems(record(raw), fixture, facts, at));
      const eventId = text(record(raw)?.eventId)?.toLowerCase();
      if (eventId && (facts.accepted.has(eventId) || fixture?.deliveries.has(eventId)))
        details.push({ code: "DUPLICATE_EVENT_ID", message: "This event id is already accepted", ...at("eventId") });
    });
    details.push(...repeatedIds(events), ...brokenOrder(events));
  }
  if (details.length > 0 || !envelope.success) return { ok: false, details: sorted(details) };
  return { ok: true, value: { ...envelope.data, events: parsed } };
}

/** A correction of `eventId`, a delivery of fixture `owner`. */
export function checkCorrection(body: unknown, owner: string, facts: LedgerFacts): Checked<CorrectionRequest> {
  const result = correctionRequestSchema.safeParse(body);
  const details = result.success ? [] : zodDetails(result.error, (path) => ({ field: path.join(".") }));
  // Trimmed as the schema trims it: " 1426312 " names the owner too.
  const fixtureId = text(record(body)?.fixtureId);
  if (fixtureId !== undefined && fixtureId !== owner && facts.fixture)
    details.push({
      code: "INVALID_FIELD",
      message: `The event belongs to fixture ${owner}`,
      field: "fixtureId",
    });
  if (facts.fixture)
    details.push(
      ...deliveryProblems(record(record(body)?.event), facts.fixture, facts, (path) => ({ field: `event.${path}` })),
    );
  if (!result.success || details.length > 0) return { ok: false, details: sorted(details) };
  return { ok: true, value: result.data };
}

function inFixture(fixtureId: unknown, facts: LedgerFacts, details: Problem[]): FixtureState | null {
  if (typeof fixtureId !== "string") return null;
  if (!facts.fixture?.scheduled)
    details.push({ code: "FIXTURE_NOT_FOUND", message: `No fixture ${fixtureId}`, field: "fixtureId" });
  return facts.fixture?.scheduled ? facts.fixture : null;
}

/** The referential rules of one delivery: its innings, who played it, how they got out. */
function deliveryProblems(
  event: Record<string, unknown> | undefined,
  fixture: FixtureState,
  facts: LedgerFacts,
  at: (path: string) => Location,
): Problem[] {
  if (!event) return [];
  const problems: Problem[] = [];
  const inningsId = text(event.inningsId);
  const innings = inningsId === undefined ? undefined : fixture.innings.get(inningsId);
  if (inningsId !== undefined && !innings)
    problems.push({ code: "INVALID_INNINGS", message: `No innings ${inningsId} in this fixture`, ...at("inningsId") });
  const batting = side(fixture, innings?.battingCompetitorId, "batting");
  const fielding = side(fixture, innings?.bowlingCompetitorId, "fielding");
  const player = (value: unknown, squad: Side, path: string, registeredWillDo = false) => {
    const id = text(value);
    if (id === undefined || squad.members(id) || (registeredWillDo && facts.registered.has(id))) return;
    const message = registeredWillDo ? "No such participant" : `Not in the squad of ${squad.label}`;
    problems.push({ code: "INVALID_PARTICIPANT", message, ...at(path) });
  };
  player(event.strikerId, batting, "strikerId");
  player(event.nonStrikerId, batting, "nonStrikerId");
  player(event.bowlerId, fielding, "bowlerId");
  wicketsOf(event).forEach((wicket, w) => {
    player(wicket.playerOutId, batting, `wickets.${w}.playerOutId`);
    const kind = text(wicket.kind);
    if (kind !== undefined && !facts.dismissalKinds.has(kind))
      problems.push({
        code: "UNKNOWN_DISMISSAL_KIND",
        message: `Unknown dismissal kind; known kinds: ${[...facts.dismissalKinds].sort().join(", ")}`,
        ...at(`wickets.${w}.kind`),
      });
    fieldersOf(wicket).forEach((fielder, f) => {
      player(fielder.id, fielding, `wickets.${w}.fielders.${f}.participantId`, fielder.substitute);
    });
  });
  return problems;
}

type Side = { label: string; members: (id: string) => boolean };

/** A side's squad; with the innings unknown, anyone in either squad passes (the innings is the problem). */
function side(fixture: FixtureState, competitorId: string | undefined, role: string): Side {
  if (competitorId === undefined)
    return { label: "either side", members: (id) => [...fixture.squads.values()].some((s) => s.has(id)) };
  const name = fixture.scheduled?.competitors.find((c) => c.competitorId === competitorId)?.name ?? competitorId;
  const squad = fixture.squads.get(competitorId);
  return { label: `${name}, the ${role} side`, members: (id) => squad?.has(id) ?? false };
}

function repeatedIds(events: unknown[]): Problem[] {
  const first = new Map<string, number>();
  return events.flatMap((raw, eventIndex) => {
    const eventId = text(record(raw)?.eventId)?.toLowerCase();
    if (eventId === undefined) return [];
    const earlier = first.get(eventId);
    if (earlier === undefined) {
      first.set(eventId, eventIndex);
      return [];
    }
    return [
      {
        code: "DUPLICATE_EVENT_ID",
        message: `Event ${earlier} of this submission has the same event id`,
        field: "eventId",
        eventIndex,
      },
    ];
  });
}

/** Within each innings, in submitted order, sequence numbers and (over, position) must both ascend. */
function brokenOrder(events: unknown[]): Problem[] {
  const last = new Map<string, { sequence: number; over: number; position: number; eventIndex: number }>();
  return events.flatMap((raw, eventIndex) => {
    const event = record(raw);
    const inningsId = text(event?.inningsId);
    const sequence = event?.sequenceNumber;
    const over = event?.overNumber;
    const position = event?.positionInOver;
    if (inningsId === undefined || !isInteger(sequence) || !isInteger(over) || !isInteger(position)) return [];
    const previous = last.get(inningsId);
    last.set(inningsId, { sequence, over, position, eventIndex });
    if (!previous) return [];
    const problems: Problem[] = [];
    if (sequence <= previous.sequence)
      problems.push({
        code: "INVALID_FIELD",
        message: `Must be greater than ${previous.sequence}, the sequenceNumber of event ${previous.eventIndex} in the same innings`,
        field: "sequenceNumber",
        eventIndex,
      });
    else if (over < previous.over || (over === previous.over && position <= previous.position))
      problems.push({
        code: "INVALID_FIELD",
        message: `Must come after over ${previous.over} position ${previous.position} (event ${previous.eventIndex}), which has a lower sequenceNumber`,
        field: over < previous.over ? "overNumber" : "positionInOver",
        eventIndex,
      });
    return problems;
  });
}

const sorted = (details: Problem[]) => details.sort((a, b) => (a.eventIndex ?? -1) - (b.eventIndex ?? -1));

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === "string" ? value.trim() : undefined);
const isInteger = (value: unknown): value is number => Number.isInteger(value);

const wicketsOf = (event: Record<string, unknown> | undefined) =>
  (Array.isArray(event?.wickets) ? event.wickets : []).map((w) => record(w) ?? {});
const fieldersOf = (wicket: Record<string, unknown>) =>
  (Array.isArray(wicket.fielders) ? wicket.fielders : []).map((f) => ({
    id: text(record(f)?.participantId),
    substitute: record(f)?.substitute === true,
  }));
