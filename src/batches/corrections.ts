import { sameState } from "../../streams/fixture-state.js";
import type { Problem } from "../commands/errors.js";
import type { Fault, Item, PackageEvent } from "../ingest/batches/package.js";
import { ledgerDelivery, SCHEMA_VERSION, type SubmittedEvent } from "../submissions/schema.js";
import { checkCorrection, type ReferenceFacts } from "../submissions/validate.js";
import type { FixtureFacts } from "./judge.js";
import { type JudgedItem, packagePath } from "./judged.js";

/**
 * Corrections in a package (docs/batches.md, "Corrections"). An item with `operation:
 * "correction"` replaces the live state of the published delivery its `correctsEventId`
 * names. That target must be one delivery, published in the fixture the item's fixture
 * resolves to; then the item is judged as a direct correction of it (checkCorrection, as a
 * PUT is): the delivery keeps the target's event id and inherits its sequence.
 */

/** Where a published delivery is, as the read models say: by event id. */
export type CorrectionTarget = { fixtureId: string; competitionId: string };

/**
 * What the package itself says of the event ids corrections name: how many of its
 * corrections name each, and the ids its new deliveries carry.
 */
export type TargetClaims = { corrections: Map<string, number>; sent: Set<string> };

export function targetClaims(items: readonly Item[]): TargetClaims {
  const claims: TargetClaims = { corrections: new Map(), sent: new Set() };
  for (const { event } of items) {
    if (event?.correctsEventId !== undefined)
      claims.corrections.set(event.correctsEventId, (claims.corrections.get(event.correctsEventId) ?? 0) + 1);
    else if (event) claims.sent.add(event.eventId);
  }
  return claims;
}

/**
 * What is wrong with a correction's target, at `<item>.correctsEventId`: the package names
 * it ambiguously (two corrections of it, whose order nothing gives, or a new delivery of that
 * id too); no delivery of that id is published; or it is published in a fixture of another
 * competition, or (`fixtureId` known) in another fixture than the item's.
 */
export function targetFaults(
  event: PackageEvent,
  itemPath: string,
  fixtureId: string | undefined,
  facts: { competitionId: string; targets: ReadonlyMap<string, CorrectionTarget> },
  claims: TargetClaims,
): Fault[] {
  const targetId = event.correctsEventId;
  if (targetId === undefined) return [];
  const fault = (code: string, message: string): Fault => ({ code, message, path: `${itemPath}.correctsEventId` });
  const faults: Fault[] = [];
  if ((claims.corrections.get(targetId) ?? 0) > 1)
    faults.push(fault("CORRECTION_TARGET_AMBIGUOUS", "Another correction of the package corrects this delivery too"));
  if (claims.sent.has(targetId))
    faults.push(fault("CORRECTION_TARGET_AMBIGUOUS", "The package also sends a new delivery with this event id"));
  const target = facts.targets.get(targetId);
  if (!target) faults.push(fault("CORRECTION_TARGET_NOT_FOUND", "No published delivery has this event id"));
  else if (target.competitionId !== facts.competitionId)
    faults.push(
      fault("CORRECTION_TARGET_WRONG_COMPETITION", "The delivery is published in a fixture of another competition"),
    );
  else if (fixtureId !== undefined && target.fixtureId !== fixtureId)
    faults.push(
      fault(
        "CORRECTION_TARGET_WRONG_FIXTURE",
        `The delivery is published in fixture ${target.fixtureId}, not this one`,
      ),
    );
  return faults;
}

/** Reasons are recorded with a revision; a package gives none, so its corrections say where they came from. */
const PACKAGE_REASON = "Correction in a batch package";

/**
 * A correction whose target is right (`targetFaults` found nothing), judged as a direct
 * correction of the delivery `fixture` holds: its faults located in the item, and its
 * outcome. Identical to the live state it is a duplicate, even where the ledger's other
 * deliveries would now make its place a conflict (as a repeated PUT is harmless).
 */
export function judgeCorrection(
  entry: JudgedItem,
  event: SubmittedEvent,
  targetId: string,
  fixtureId: string,
  fixture: FixtureFacts,
  reference: ReferenceFacts,
): void {
  const current = fixture.state.deliveries.get(targetId);
  if (!current) {
    // The read models said the fixture holds it, and its stream is never behind them.
    entry.faults.push({
      code: "CORRECTION_TARGET_NOT_FOUND",
      message: "No published delivery has this event id",
      path: `${entry.path}.correctsEventId`,
    });
    entry.outcome = "rejected";
    return;
  }
  const body = {
    fixtureId,
    schemaVersion: SCHEMA_VERSION,
    reason: PACKAGE_REASON,
    event: { ...event, eventId: targetId },
  };
  const target = { fixtureId, eventId: targetId, sequenceNumber: current.sequenceNumber };
  const found = checkCorrection(body, target, fixture.state, reference);
  const located = (p: Problem): Fault => ({ code: p.code, message: p.message, path: packagePath(entry.path, p.field) });
  entry.faults.push(...found.invalid.map(located));
  if (found.value && sameState(current.state, ledgerDelivery(found.value.event))) {
    entry.outcome = "duplicate";
    return;
  }
  entry.faults.push(...found.conflicts.map(located));
  entry.outcome = found.invalid.length > 0 ? "rejected" : found.conflicts.length > 0 ? "conflicting" : "accepted";
}
