import type { FixtureState } from "../../streams/fixture-state.js";
import { sameState } from "../../streams/fixture-state.js";
import type { Problem } from "../commands/errors.js";
import type { Fault, Item, ReadFixture, ReadPackage } from "../ingest/batches/package.js";
import {
  ledgerDelivery,
  MAX_EVENTS,
  SCHEMA_VERSION,
  type SubmittedEvent,
  submissionOrder,
} from "../submissions/schema.js";
import { checkSubmission, type ReferenceFacts } from "../submissions/validate.js";
import {
  type CorrectionTarget,
  judgeCorrection,
  type TargetClaims,
  targetClaims,
  targetFaults,
} from "./corrections.js";
import { type FixturePlace, fixtureLabel, judgeFixtures } from "./fixtures.js";
import { inningsPathOf, type JudgedItem, type Outcome, packagePath } from "./judged.js";
import { resolveEvent } from "./people.js";
import type { Candidate } from "./references.js";

/**
 * Validation of a package: every item judged in one pass against what the read models and
 * the fixtures' streams hold (docs/batches.md, "Validation"). Pure: the facts come in.
 */

export type { JudgedItem, Outcome };

type ItemContext = JudgedItem["context"];

/** A fixture of the competition, as a package may name it. */
export type FixtureCandidate = Candidate & { date: string; seasonId: string; competitors: Candidate[] };

/** What validation knows of a fixture a package names: its ledger and its people. */
export type FixtureFacts = {
  state: FixtureState;
  innings: { inningsId: string; ordinal: number; battingCompetitorId: string; bowlingCompetitorId: string }[];
  /** Each competitor's squad, its members as references may name them. */
  squads: Map<string, Candidate[]>;
};

export type BatchFacts = {
  /** The competition the batch is for (resolved at intake). */
  competitionId: string;
  fixtures: FixtureCandidate[];
  /** The competition's seasons, as references may name them. */
  seasons: Candidate[];
  byFixture: Map<string, FixtureFacts>;
  /** Participants the package's substitute fielders name by source id: a substitute need not be in a squad. */
  substitutes: Candidate[];
  /** Where the published deliveries the package's corrections name are, by event id (absent: none is). */
  targets: Map<string, CorrectionTarget>;
  reference: ReferenceFacts;
};

/** A delivery of the package as the ledger would hold it: its fixture, its ids resolved, the delivery a correction replaces. */
export type ResolvedItem = { fixtureId: string; event: SubmittedEvent; correctsEventId?: string };

/**
 * The items as judged, the faults outside any delivery, and, by ordinal, each item whose
 * fixture, innings and people were all found, resolved: what publication checks again
 * against the ledger and publishes.
 */
export type Judgement = { items: JudgedItem[]; faults: Fault[]; resolved: Map<number, ResolvedItem> };

/** What every item is judged against: the facts, the package's faults, and what the package says of correction targets. */
type Scope = { facts: BatchFacts; read: ReadPackage; claims: TargetClaims };

/**
 * The item as a delivery the direct submissions' checks can judge, when its fixture, innings
 * and people are all found and nothing is wrong with it so far; else undefined, with what
 * stops it among the entry's faults and requirements.
 */
function deliveryOf(
  item: Item,
  place: FixturePlace | undefined,
  { facts, read, claims }: Scope,
  entry: JudgedItem,
): SubmittedEvent | undefined {
  const readInnings = place?.fixture.innings[item.inningsIndex];
  const inningsPath = inningsPathOf(item.path);
  if (
    !place?.fixture.value ||
    !readInnings ||
    place.faults.length > 0 ||
    (place.inningsFaults[item.inningsIndex]?.length ?? 0) > 0 ||
    read.faults.some((f) => holds(f.path, inningsPath))
  )
    entry.faults.push({
      code: "FIXTURE_INVALID",
      message: "The fixture or innings this delivery belongs to has faults of its own (see the package faults)",
      path: inningsPath,
    });
  if (item.event) entry.faults.push(...targetFaults(item.event, item.path, place?.id, facts, claims));
  entry.requirements.push(...(place?.requirements ?? []));
  const fixture = place?.id === undefined ? undefined : facts.byFixture.get(place.id);
  if (entry.faults.length > 0 || !item.event || !fixture || !readInnings) return undefined;
  const innings = fixture.innings.find((i) => i.ordinal === readInnings.context.ordinal);
  if (!innings) {
    entry.faults.push({
      code: "INVALID_INNINGS",
      message: `The fixture has no innings of ordinal ${readInnings.context.ordinal}`,
      path: `${inningsPath}.context.ordinal`,
    });
    return undefined;
  }
  return resolveEvent(item, item.event, innings, fixture, facts.substitutes, read.mappings, entry);
}

/**
 * Judges every item of a package against `facts`: new deliveries of a fixture together, as
 * one submission; each correction on its own, as a correction of its target.
 */
export function judgeBatch(read: ReadPackage, facts: BatchFacts): Judgement {
  const { places, faults } = judgeFixtures(read, facts);
  const scope: Scope = { facts, read, claims: targetClaims(read.items) };
  const judged: JudgedItem[] = [];
  const toCheck = new Map<string, { item: Item; event: SubmittedEvent; judged: JudgedItem }[]>();
  const resolved = new Map<number, ResolvedItem>();

  for (const item of read.items) {
    const place = places[item.fixtureIndex];
    const entry: JudgedItem = {
      ordinal: item.ordinal,
      path: item.path,
      eventId: item.event?.eventId ?? null,
      outcome: "accepted",
      context: contextOf(item, place?.fixture),
      faults: [...item.faults],
      requirements: [],
    };
    judged.push(entry);
    const submitted = deliveryOf(item, place, scope, entry);
    const targetId = item.event?.correctsEventId;
    if (submitted && place?.id !== undefined)
      resolved.set(item.ordinal, {
        fixtureId: place.id,
        event: submitted,
        ...(targetId === undefined ? {} : { correctsEventId: targetId }),
      });
    if (!submitted || place?.id === undefined) entry.outcome = outcomeOf(entry);
    else if (targetId !== undefined) {
      const fixture = facts.byFixture.get(place.id) as FixtureFacts;
      judgeCorrection(entry, submitted, targetId, place.id, fixture, facts.reference);
    } else {
      const group = toCheck.get(place.id) ?? [];
      group.push({ item, event: submitted, judged: entry });
      toCheck.set(place.id, group);
    }
  }

  for (const [fixtureId, group] of toCheck) {
    const fixtureFacts = facts.byFixture.get(fixtureId) as FixtureFacts;
    // In a package, array position is never order.
    const ordered = group.toSorted((a, b) => submissionOrder(a.event, b.event));
    for (const part of chunks(ordered, MAX_EVENTS)) checkDeliveries(fixtureId, part, fixtureFacts, facts.reference);
  }
  // A reference still to resolve (the season's, with the fixture found) outweighs what the ledger says.
  for (const entry of judged)
    if (entry.outcome !== "rejected" && entry.requirements.length > 0) entry.outcome = "unresolved";
  return { items: judged, faults: [...read.faults, ...faults], resolved };
}

/**
 * Whether a package fault at `path` lies on the way to the innings at `inningsPath`: in its
 * fixture or innings, not in another innings or in an event (a fault of its own item).
 */
const holds = (path: string, inningsPath: string) => {
  const [fixture] = /^fixtures\.\d+/.exec(inningsPath) ?? [];
  if (fixture === undefined || (path !== fixture && !path.startsWith(`${fixture}.`))) return false;
  const inner = path.slice(fixture.length);
  return (
    !inner.startsWith(".innings.") ||
    path === inningsPath ||
    (path.startsWith(`${inningsPath}.`) && !path.includes(".events."))
  );
};

function outcomeOf(entry: JudgedItem): Outcome {
  if (entry.faults.length > 0) return "rejected";
  if (entry.requirements.length > 0) return "unresolved";
  return entry.outcome;
}

function contextOf(item: Item, fixture: ReadFixture | undefined): ItemContext {
  const value = fixture?.value;
  const e = item.event;
  return {
    fixture: value ? fixtureLabel(value) : null,
    innings: fixture?.innings[item.inningsIndex]?.context.ordinal ?? null,
    over: e?.overNumber ?? null,
    ball: e ? (e.ballLabel ?? `${e.overNumber}.${e.positionInOver + 1}`) : null,
  };
}

/**
 * The deliveries of one fixture through the direct submissions' checks, as one submission:
 * the same rules, codes and conflicts. A conflict on an event id the ledger holds with the
 * same content is a duplicate (already published); any other conflict is conflicting.
 */
function checkDeliveries(
  fixtureId: string,
  group: { item: Item; event: SubmittedEvent; judged: JudgedItem }[],
  fixture: FixtureFacts,
  reference: ReferenceFacts,
) {
  const body = { fixtureId, schemaVersion: SCHEMA_VERSION, events: group.map((g) => g.event) };
  const found = checkSubmission(body, fixture.state, reference);
  const at = (p: Problem) => (p.eventIndex === undefined ? undefined : group[p.eventIndex]);
  for (const problem of found.invalid) {
    const entry = at(problem);
    if (!entry) continue;
    entry.judged.faults.push({
      code: problem.code,
      message: problem.message,
      path: packagePath(entry.item.path, problem.field),
    });
  }
  const conflicting = new Set<JudgedItem>();
  const duplicates = new Set<JudgedItem>();
  for (const problem of found.conflicts) {
    const entry = at(problem);
    if (!entry) continue;
    const held = fixture.state.deliveries.get(entry.event.eventId);
    const same =
      problem.code === "DUPLICATE_EVENT_ID" && held !== undefined && sameState(held.state, ledgerDelivery(entry.event));
    (same ? duplicates : conflicting).add(entry.judged);
    entry.judged.faults.push({
      code: problem.code,
      message: problem.message,
      path: packagePath(entry.item.path, problem.field),
    });
  }
  for (const { judged } of group) {
    if (judged.faults.some((f) => f.code !== "DUPLICATE_EVENT_ID" && f.code !== "EVENT_CONFLICT"))
      judged.outcome = "rejected";
    else if (conflicting.has(judged)) judged.outcome = "conflicting";
    else if (duplicates.has(judged)) judged.outcome = "duplicate";
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
