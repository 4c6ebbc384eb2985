import type { FixtureState } from "../../streams/fixture-state.js";
import { byEvent, type Problem } from "../commands/errors.js";
import { bodyLocation, type Location, zodDetails } from "../commands/problems.js";
import { oversAllowed } from "./overs.js";
import { LedgerPlaces, type Placement } from "./places.js";
import {
  type CorrectionRequest,
  correctionRequestSchema,
  type DirectSubmission,
  MAX_EVENTS,
  type SubmittedEvent,
  submissionEnvelopeSchema,
  submittedEventSchema,
} from "./schema.js";

/**
 * Every detectable problem of a submission or a correction, in one pass: the structure of
 * each value (schema.ts) and what it says about the ledger (this file). An event that is
 * malformed in one field is still checked in its others, so the answer lists everything.
 */

/** What the checks consult beside the fixture's own state: read models, read once per request (`facts.ts`). */
export type ReferenceFacts = {
  dismissalKinds: ReadonlySet<string>;
  /** Participants that exist anywhere: a substitute fielder need not be in the squad. */
  registered: ReadonlySet<string>;
  /** Event ids of this request already accepted, in any fixture (lower case). */
  accepted: ReadonlySet<string>;
};

/**
 * What the checks found: the value when the input is well formed; `invalid` problems, which
 * are the sender's to mend, and `conflicts` with what the ledger already holds.
 */
export type Findings<T> = { value: T | undefined; invalid: Problem[]; conflicts: Problem[] };

export type NamedIds = { fixtureId?: string; eventIds: string[]; participantIds: string[] };

/**
 * The ids a request names, so `facts.ts` reads only what the checks need; none from more
 * events than a submission may hold, which are refused by their count alone.
 */
export function namedIds(body: unknown): NamedIds {
  const top = record(body);
  const listed = Array.isArray(top?.events) ? top.events : top?.event !== undefined ? [top.event] : [];
  const events = listed.length > MAX_EVENTS ? [] : listed;
  return {
    fixtureId: text(top?.fixtureId),
    eventIds: events.flatMap((e) => text(record(e)?.eventId)?.toLowerCase() ?? []),
    participantIds: events.flatMap((e) =>
      wicketsOf(record(e)).flatMap((w) => fieldersOf(w).flatMap((f) => f.id ?? [])),
    ),
  };
}

/** A submission to `fixture`, the fixture's state as its stream stands. */
export function checkSubmission(
  body: unknown,
  fixture: FixtureState,
  facts: ReferenceFacts,
): Findings<DirectSubmission> {
  const envelope = submissionEnvelopeSchema.safeParse(body);
  const invalid = envelope.success ? [] : zodDetails(envelope.error, bodyLocation);
  const conflicts: Problem[] = [];
  const events = Array.isArray(record(body)?.events) ? (record(body)?.events as unknown[]) : [];
  // Past the limit only the count is reported: checking an unbounded list is the attack.
  const checkable = envelope.success || (invalid.every((d) => d.field !== "events") && events.length > 0);
  const parsed: SubmittedEvent[] = [];
  if (checkable) {
    // A fixtureId the envelope refused names no fixture to look for.
    const named = invalid.some((d) => d.field === "fixtureId") ? undefined : record(body)?.fixtureId;
    const scheduled = inFixture(named, fixture, invalid);
    const places = scheduled ? new LedgerPlaces(fixture) : undefined;
    events.forEach((raw, eventIndex) => {
      const at = (path: string) => ({ field: path, eventIndex });
      const result = submittedEventSchema.safeParse(raw);
      if (result.success) parsed.push(result.data);
      else invalid.push(...zodDetails(result.error, (path) => at(path.join("."))));
      const event = record(raw);
      if (scheduled) invalid.push(...deliveryProblems(event, fixture, facts, at));
      const eventId = text(event?.eventId)?.toLowerCase();
      if (eventId && (facts.accepted.has(eventId) || fixture.deliveries.has(eventId)))
        conflicts.push({ code: "DUPLICATE_EVENT_ID", message: "This event id is already accepted", ...at("eventId") });
      const placement = placementOf(event, eventId);
      if (places && placement) conflicts.push(...places.conflicts(placement, { eventIndex }));
    });
    invalid.push(...repeatedIds(events), ...brokenOrder(events));
  }
  const value = envelope.success && invalid.length === 0 ? { ...envelope.data, events: parsed } : undefined;
  return { value, invalid: byEvent(invalid), conflicts: byEvent(conflicts) };
}

/** What a correction is about: the delivery, as the fixture's stream holds it. */
export type CorrectionTarget = { fixtureId: string; eventId: string; sequenceNumber: number };

/** A correction of `target`, a delivery of `fixture` (the fixture's state as its stream stands). */
export function checkCorrection(
  body: unknown,
  target: CorrectionTarget,
  fixture: FixtureState,
  facts: ReferenceFacts,
): Findings<CorrectionRequest> {
  const result = correctionRequestSchema.safeParse(body);
  const invalid = result.success ? [] : zodDetails(result.error, (path) => ({ field: path.join(".") }));
  const top = record(body);
  const event = record(top?.event);
  // Trimmed as the schema trims it: " 1426312 " names the owner too.
  const fixtureId = text(top?.fixtureId);
  if (fixtureId !== undefined && fixtureId !== target.fixtureId)
    invalid.push({
      code: "INVALID_FIELD",
      message: `The event belongs to fixture ${target.fixtureId}`,
      field: "fixtureId",
    });
  // A state read back from the history names its delivery; only another one is refused.
  const eventId = text(event?.eventId)?.toLowerCase();
  if (eventId !== undefined && eventId !== target.eventId)
    invalid.push({
      code: "INVALID_FIELD",
      message: `Must be ${target.eventId}, the corrected event's id`,
      field: "event.eventId",
    });
  if (isInteger(event?.sequenceNumber) && event.sequenceNumber !== target.sequenceNumber)
    invalid.push({
      code: "INVALID_FIELD",
      message: `The sequence is inherited: must be ${target.sequenceNumber}, the delivery's own, or absent`,
      field: "event.sequenceNumber",
    });
  const within = (path: string) => ({ field: `event.${path}` });
  invalid.push(...deliveryProblems(event, fixture, facts, within));
  const placement = placementOf({ ...event, sequenceNumber: target.sequenceNumber }, target.eventId);
  const conflicts = placement
    ? new LedgerPlaces(fixture, target.eventId).conflicts(placement, {}, CORRECTION_FIELDS)
    : [];
  const value = result.success && invalid.length === 0 ? result.data : undefined;
  return { value, invalid: byEvent(invalid), conflicts };
}

/**
 * A correction's sequence is inherited, so a sequence number held in the innings it moves to
 * is a problem of that move: its `inningsId`.
 */
const CORRECTION_FIELDS = {
  sequenceNumber: "event.inningsId",
  overNumber: "event.overNumber",
  positionInOver: "event.positionInOver",
};

/** Where a raw event would go, when the fields that say so are well typed. */
function placementOf(event: Record<string, unknown> | undefined, eventId: string | undefined): Placement | undefined {
  const inningsId = text(event?.inningsId);
  const { sequenceNumber, overNumber, positionInOver } = event ?? {};
  if (eventId === undefined || inningsId === undefined) return undefined;
  if (!isInteger(sequenceNumber) || !isInteger(overNumber) || !isInteger(positionInOver)) return undefined;
  return { eventId, inningsId, sequenceNumber, overNumber, positionInOver };
}

/** Whether the fixture the submission names exists; a problem when it does not. */
function inFixture(fixtureId: unknown, fixture: FixtureState, problems: Problem[]): boolean {
  if (typeof fixtureId !== "string") return false;
  if (!fixture.scheduled)
    problems.push({ code: "FIXTURE_NOT_FOUND", message: `No fixture ${fixtureId}`, field: "fixtureId" });
  return fixture.scheduled !== null;
}

/** The referential rules of one delivery: its innings, who played it, how they got out. */
function deliveryProblems(
  event: Record<string, unknown> | undefined,
  fixture: FixtureState,
  facts: ReferenceFacts,
  at: (path: string) => Location,
): Problem[] {
  if (!event) return [];
  const problems: Problem[] = [];
  const inningsId = text(event.inningsId);
  const innings = inningsId === undefined ? undefined : fixture.innings.get(inningsId);
  if (inningsId !== undefined && !innings)
    problems.push({ code: "INVALID_INNINGS", message: `No innings ${inningsId} in this fixture`, ...at("inningsId") });
  const overs = innings && oversAllowed(fixture, innings);
  if (overs && isInteger(event.overNumber) && event.overNumber >= overs.count)
    problems.push({ code: "INVALID_FIELD", message: overs.message, ...at("overNumber") });
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
