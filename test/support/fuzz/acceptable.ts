import fc from "fast-check";
import { aPackage } from "../batches.js";
import type { FixtureBuilder } from "../cricket-builders.js";
import { submission, validEvents } from "../submissions.js";

/*
 * Requests valid enough to be accepted, for the operations whose parts must fit together
 * (path, body, the fixture's state): the fuzz sends them as they are and mutated, so that
 * acceptance, conflicts and what follows them (projections, statistics) are reached.
 */

/** A request's path parameters and body, made to fit each other. */
/** A request valid enough to be accepted: its path parameters, its body, and the credential only some caller has. */
export type Coordinated = { params: Record<string, string>; body: unknown; authorization?: string };

/** A delivery a correction may replace: where it is, and who batted and bowled it. */
export type Delivery = {
  fixtureId: string;
  eventId: string;
  inningsId: string;
  overNumber: number;
  positionInOver: number;
  ballNumber?: string | null;
  strikerId: string;
  nonStrikerId: string;
  bowlerId: string;
};

/** Direct submissions to `open` (as JSON or as an uploaded file), at places that may be free or taken. */
export function submissions(open: FixtureBuilder): fc.Arbitrary<Coordinated> {
  return fc
    .tuple(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 60 }),
      fc.uniqueArray(fc.uuid(), { minLength: 4, maxLength: 4 }),
    )
    .map(([count, from, eventIds]) => ({
      params: {},
      body: submission(
        open,
        validEvents(open, count, { from }).map((e, i) => ({ ...e, eventId: eventIds[i] as string })),
      ),
    }));
}

/**
 * What a corrected delivery may say happened: runs off the bat, or one kind of extra, with
 * runs that add up; no wicket, or the striker bowled or caught (by the bowler), or the
 * non-striker run out.
 */
function outcomes(delivery: Delivery) {
  const extraKinds = fc.constantFrom(undefined, "wides", "noBalls", "byes", "legByes", "penalty");
  const wickets = fc.constantFrom(
    [],
    [{ kind: "bowled", playerOutId: delivery.strikerId, fielders: [] }],
    [
      {
        kind: "caught",
        playerOutId: delivery.strikerId,
        fielders: [{ participantId: delivery.bowlerId, substitute: false }],
      },
    ],
    [{ kind: "run out", playerOutId: delivery.nonStrikerId, fielders: [] }],
  );
  return fc
    .tuple(fc.integer({ min: 0, max: 6 }), extraKinds, fc.integer({ min: 1, max: 5 }), wickets)
    .map(([offBat, extraKind, extraRuns, wickets]) => {
      // Wides, byes and leg byes are off no bat.
      const bat = extraKind === undefined || extraKind === "noBalls" || extraKind === "penalty" ? offBat : 0;
      const extras = extraKind === undefined ? {} : { [extraKind]: extraRuns };
      const extraTotal = extraKind === undefined ? 0 : extraRuns;
      return { runs: { offBat: bat, extras: extraTotal, total: bat + extraTotal }, extras, wickets };
    });
}

/** Corrections of `deliveries`, by path and body, each with a plausible new outcome. */
export function corrections(deliveries: readonly Delivery[]): fc.Arbitrary<Coordinated> {
  return fc
    .constantFrom(...deliveries)
    .chain((delivery) =>
      fc.tuple(fc.constant(delivery), outcomes(delivery), fc.string({ minLength: 1, maxLength: 40 })),
    )
    .map(([{ fixtureId, eventId, ...where }, outcome, reason]) => ({
      params: { eventId },
      body: {
        fixtureId,
        schemaVersion: "1.0",
        reason,
        event: {
          inningsId: where.inningsId,
          overNumber: where.overNumber,
          positionInOver: where.positionInOver,
          ...(where.ballNumber ? { ballNumber: where.ballNumber } : {}),
          strikerId: where.strikerId,
          nonStrikerId: where.nonStrikerId,
          bowlerId: where.bowlerId,
          ...outcome,
        },
      },
    }));
}

/** Batch packages for the competition of `open`, of either contract version. */
export function batchPackages(open: FixtureBuilder): fc.Arbitrary<Coordinated> {
  return fc
    .tuple(fc.constantFrom("1.0", "1.1"), fc.stringMatching(/^[a-z0-9-]{1,20}$/))
    .map(([contractVersion, packageId]) => ({
      params: {},
      body: aPackage(open.competition, { contractVersion, packageId }),
    }));
}

/** Reviews of the world's batch by name (an administrator not its sender, most tokens are): decisions the route takes whole. */
export function batchReviews(batchReference: string): fc.Arbitrary<Coordinated> {
  return fc
    .tuple(
      fc.constantFrom("approved", "rejected"),
      fc.constantFrom<"all" | number[]>("all", [0]),
      fc.string({ minLength: 1, maxLength: 40 }),
    )
    .map(([decision, items, reason]) => ({
      params: { batchReference },
      body: { decision, items, reason: reason.trim() === "" ? "fuzz" : reason },
    }));
}

/**
 * Replacements for an item of the world's batch, as its sender (only the sender
 * resubmits): the batch was never validated, so they are refused for the batch's state.
 */
export function batchResubmissions(batchReference: string, senderToken: string): fc.Arbitrary<Coordinated> {
  return fc.nat({ max: 3 }).map((ordinal) => ({
    params: { batchReference },
    body: { items: [{ ordinal, event: { eventId: "0b3f9a52-8c1e-4e59-a8e5-1f0c2d9b7a41", occurrenceSequence: 1 } }] },
    authorization: `Bearer ${senderToken}`,
  }));
}

/** Corrections of one of the world's venues: a name, a city (or none), coordinates by hand, or some of each. */
export function venueChanges(venueIds: readonly string[]): fc.Arbitrary<Coordinated> {
  const text = fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,38}[A-Za-z]$/);
  return fc
    .tuple(
      fc.constantFrom(...venueIds),
      fc.option(text, { nil: undefined }),
      fc.option(fc.option(text, { nil: null }), { nil: undefined }),
      fc.option(
        fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
        {
          nil: undefined,
        },
      ),
    )
    .map(([venueId, name, city, at]) => ({
      params: { venueId },
      body: {
        ...(name === undefined && city === undefined && at === undefined ? { name: "Fuzz Oval" } : {}),
        ...(name === undefined ? {} : { name }),
        ...(city === undefined ? {} : { city }),
        ...(at === undefined ? {} : { latitude: at[0], longitude: at[1] }),
      },
    }));
}
