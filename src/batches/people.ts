import type { Item, PackageEvent, PackageReference } from "../ingest/batches/package.js";
import type { SubmittedEvent } from "../submissions/schema.js";
import type { FixtureFacts } from "./judge.js";
import { type JudgedItem, requirement } from "./judged.js";
import { type Candidate, candidatesAt } from "./references.js";

/**
 * The people of a package's delivery, each found in the squad they must be in: batters in
 * the batting side's, the bowler and fielders in the fielding side's, a substitute in either
 * (docs/batches.md, "Validation").
 */

type InningsFacts = FixtureFacts["innings"][number];

/** The item as a direct submission's event, each person resolved in the squad they must be in; undefined when one is not. */
export function resolveEvent(
  item: Item,
  e: PackageEvent,
  innings: InningsFacts,
  fixture: FixtureFacts,
  substitutes: readonly Candidate[],
  mappings: ReadonlyMap<string, string>,
  entry: JudgedItem,
): SubmittedEvent | undefined {
  const batting = fixture.squads.get(innings.battingCompetitorId) ?? [];
  const fielding = fixture.squads.get(innings.bowlingCompetitorId) ?? [];
  let complete = true;
  const person = (reference: PackageReference, path: string, squad: readonly Candidate[]) => {
    const at = `${item.path}.${path}`;
    const found = candidatesAt(mappings, at, reference, squad);
    const [only] = found;
    if (only && found.length === 1) return only.id;
    entry.requirements.push(requirement(at, reference, found, "participant"));
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
