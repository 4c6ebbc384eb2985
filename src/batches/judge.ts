import type { JudgedItemData } from "../../streams/batch.js";
import type { FixtureState } from "../../streams/fixture-state.js";
import { sameState } from "../../streams/fixture-state.js";
import type { Problem } from "../commands/errors.js";
import type {
  Fault,
  Item,
  PackageEvent,
  PackageFixture,
  PackageReference,
  ReadFixture,
  ReadPackage,
} from "../ingest/batches/package.js";
import { ledgerDelivery, MAX_EVENTS, type SubmittedEvent } from "../submissions/schema.js";
import { checkSubmission, type ReferenceFacts } from "../submissions/validate.js";
import { type Candidate, candidatesFor } from "./references.js";

/**
 * Validation of a package: every item judged in one pass against what the read models and
 * the fixtures' streams hold (docs/batches.md, "Validation"). Pure: the facts come in.
 */

/** A delivery of the package as judged: its outcome, faults and references to resolve (the `BatchItemsJudged` item). */
export type JudgedItem = JudgedItemData;
export type Outcome = JudgedItem["outcome"];
/** A reference that names no candidate, or several: the batch stays staged until it is resolved. */
type Requirement = JudgedItem["requirements"][number];
type ItemContext = JudgedItem["context"];

/** A fixture of the competition, as a package may name it. */
export type FixtureCandidate = Candidate & { date: string; competitors: Candidate[] };

/** What validation knows of a fixture a package names: its ledger and its people. */
export type FixtureFacts = {
  state: FixtureState;
  innings: { inningsId: string; ordinal: number; battingCompetitorId: string; bowlingCompetitorId: string }[];
  /** Each competitor's squad, its members as references may name them. */
  squads: Map<string, Candidate[]>;
};

export type BatchFacts = {
  fixtures: FixtureCandidate[];
  byFixture: Map<string, FixtureFacts>;
  /** Participants the package's substitute fielders name by source id: a substitute need not be in a squad. */
  substitutes: Candidate[];
  reference: ReferenceFacts;
};

export type Judgement = { items: JudgedItem[]; faults: Fault[] };

/** Where each fixture of the package leads: the one fixture it names, or what stops it. */
export function resolveFixtures(read: ReadPackage, fixtures: readonly FixtureCandidate[]) {
  return read.fixtures.map((f) => {
    if (!f.value) return { fixture: f, id: undefined, requirement: undefined };
    const found = fixtureCandidates(f, fixtures);
    const [only] = found;
    return only && found.length === 1
      ? { fixture: f, id: only.id, requirement: undefined }
      : {
          fixture: f,
          id: undefined,
          requirement: requirement(`fixtures.${f.index}`, fixtureReference(f), found, "fixture"),
        };
  });
}

function fixtureCandidates(f: ReadFixture, fixtures: readonly FixtureCandidate[]): FixtureCandidate[] {
  const value = f.value;
  if (!value) return [];
  if (value.sourceId !== undefined) return candidatesFor({ sourceId: value.sourceId }, fixtures) as FixtureCandidate[];
  return fixtures.filter(
    (c) =>
      c.date === value.context.date &&
      value.context.teams.every((team) => candidatesFor(team, c.competitors).length === 1),
  );
}

/** "2024-04-01 Mumbai Indians v Chennai Super Kings": a fixture as people name it. */
const fixtureLabel = (f: PackageFixture) =>
  `${f.context.date} ${f.context.teams.map((t) => t.context.name).join(" v ")}`;

const fixtureReference = (f: ReadFixture): PackageReference => ({
  ...(f.value?.sourceId === undefined ? {} : { sourceId: f.value.sourceId }),
  context: {
    name: f.value ? fixtureLabel(f.value) : "",
  },
});

function requirement(
  referencePath: string,
  submitted: PackageReference,
  found: readonly Candidate[],
  type: string,
): Requirement {
  return {
    code: found.length === 0 ? "UNRESOLVED_REFERENCE" : "AMBIGUOUS_REFERENCE",
    referencePath,
    submittedReference: submitted,
    candidates: found.slice(0, 10).map((c) => ({
      sourceId: `app:${type}:${c.id}`,
      label: c.name,
      candidateReference: Buffer.from(`${type}:${c.id}`).toString("base64url"),
    })),
    resolutionRequired: true,
  };
}

type Place = ReturnType<typeof resolveFixtures>[number];

/**
 * The item as a delivery the direct submissions' checks can judge, when its fixture, innings
 * and people are all found and nothing is wrong with it so far; else undefined, with what
 * stops it among the entry's faults and requirements.
 */
function deliveryOf(
  item: Item,
  place: Place | undefined,
  facts: BatchFacts,
  packageFaults: readonly Fault[],
  entry: JudgedItem,
): SubmittedEvent | undefined {
  const readInnings = place?.fixture.innings[item.inningsIndex];
  const inningsPath = item.path.replace(/\.events\.\d+$/, "");
  if (!place?.fixture.value || !readInnings || packageFaults.some((f) => holds(f.path, inningsPath)))
    entry.faults.push({
      code: "FIXTURE_INVALID",
      message: "The fixture or innings this delivery belongs to has faults of its own (see the package faults)",
      path: inningsPath,
    });
  if (place?.requirement) entry.requirements.push(place.requirement);
  const fixture = place?.id === undefined ? undefined : facts.byFixture.get(place.id);
  if (entry.faults.length > 0 || !item.event || !fixture || !readInnings) return undefined;
  if (item.event.operation === "correction") {
    entry.faults.push({
      code: "CORRECTION_NOT_JUDGED",
      message: "Corrections in packages are not judged yet; send them as direct corrections",
      path: `${item.path}.operation`,
    });
    return undefined;
  }
  const innings = fixture.innings.find((i) => i.ordinal === readInnings.context.ordinal);
  if (!innings) {
    entry.faults.push({
      code: "INVALID_INNINGS",
      message: `The fixture has no innings of ordinal ${readInnings.context.ordinal}`,
      path: `${inningsPath}.context.ordinal`,
    });
    return undefined;
  }
  return resolveEvent(item, item.event, innings, fixture, facts.substitutes, entry);
}

/** Judges every item of a package whose fixtures were resolved against `facts`. */
export function judgeBatch(read: ReadPackage, facts: BatchFacts): Judgement {
  const resolved = resolveFixtures(read, facts.fixtures);
  const judged: JudgedItem[] = [];
  const toCheck = new Map<string, { item: Item; event: SubmittedEvent; judged: JudgedItem }[]>();

  for (const item of read.items) {
    const place = resolved[item.fixtureIndex];
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
    const submitted = deliveryOf(item, place, facts, read.faults, entry);
    if (!submitted || place?.id === undefined) {
      entry.outcome = outcomeOf(entry);
      continue;
    }
    const group = toCheck.get(place.id) ?? [];
    group.push({ item, event: submitted, judged: entry });
    toCheck.set(place.id, group);
  }

  for (const [fixtureId, group] of toCheck) {
    const fixtureFacts = facts.byFixture.get(fixtureId) as FixtureFacts;
    // A submission lists an innings in its order; in a package, array position is never order.
    const ordered = group.toSorted(
      (a, b) => a.event.inningsId.localeCompare(b.event.inningsId) || a.event.sequenceNumber - b.event.sequenceNumber,
    );
    for (const part of chunks(ordered, MAX_EVENTS)) checkDeliveries(fixtureId, part, fixtureFacts, facts.reference);
  }
  return { items: judged, faults: read.faults };
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

type InningsFacts = FixtureFacts["innings"][number];

/** The item as a direct submission's event, each person resolved in the squad they must be in; undefined when one is not. */
function resolveEvent(
  item: Item,
  e: PackageEvent,
  innings: InningsFacts,
  fixture: FixtureFacts,
  substitutes: readonly Candidate[],
  entry: JudgedItem,
): SubmittedEvent | undefined {
  const batting = fixture.squads.get(innings.battingCompetitorId) ?? [];
  const fielding = fixture.squads.get(innings.bowlingCompetitorId) ?? [];
  let complete = true;
  const person = (reference: PackageReference, path: string, squad: readonly Candidate[]) => {
    const found = candidatesFor(reference, squad);
    const [only] = found;
    if (only && found.length === 1) return only.id;
    entry.requirements.push(requirement(`${item.path}.${path}`, reference, found, "participant"));
    complete = false;
    return "";
  };
  const event: SubmittedEvent = {
    eventId: e.eventId,
    inningsId: innings.inningsId,
    sequenceNumber: e.occurrenceSequence,
    overNumber: e.overNumber,
    positionInOver: e.positionInOver,
    ballNumber: e.ballLabel ?? null,
    strikerId: person(e.striker, "striker", batting),
    nonStrikerId: person(e.nonStriker, "nonStriker", batting),
    bowlerId: person(e.bowler, "bowler", fielding),
    runs: e.runs,
    extras: e.extras,
    wickets: e.wickets.map((w, n) => ({
      kind: w.kind,
      playerOutId: person(w.playerOut, `wickets.${n}.playerOut`, batting),
      fielders: w.fielders.map((f, m) => ({
        participantId: person(
          f.participant,
          `wickets.${n}.fielders.${m}.participant`,
          // By name among both squads; by source id among anyone registered.
          f.substitute ? [...fielding, ...batting, ...substitutes] : fielding,
        ),
        substitute: f.substitute,
      })),
    })),
  };
  return complete ? event : undefined;
}

/** A submitted event's field as the package names it. */
const packageField = (field: string) =>
  field
    .replace(/^strikerId$/, "striker")
    .replace(/^nonStrikerId$/, "nonStriker")
    .replace(/^bowlerId$/, "bowler")
    .replace(/^sequenceNumber$/, "occurrenceSequence")
    .replace(/^ballNumber$/, "ballLabel")
    .replace(/\.playerOutId$/, ".playerOut")
    .replace(/\.participantId$/, ".participant");

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
  const body = { fixtureId, schemaVersion: "1.0", events: group.map((g) => g.event) };
  const found = checkSubmission(body, fixture.state, reference);
  const at = (p: Problem) => (p.eventIndex === undefined ? undefined : group[p.eventIndex]);
  for (const problem of found.invalid) {
    const entry = at(problem);
    if (!entry) continue;
    const field = problem.field === "inningsId" ? "context.ordinal" : packageField(problem.field);
    const path =
      field === "context.ordinal"
        ? entry.item.path.replace(/\.events\.\d+$/, `.${field}`)
        : `${entry.item.path}.${field}`;
    entry.judged.faults.push({ code: problem.code, message: problem.message, path });
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
      path: `${entry.item.path}.${packageField(problem.field)}`,
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
