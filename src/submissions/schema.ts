import { z } from "@hono/zod-openapi";
import type { DeliveryState } from "../../streams/fixture.js";
import { REQUIRED } from "../commands/problems.js";
import { SAMPLE } from "../ingest/sample-ids.js";

/**
 * What a direct submission and a correction may say, structurally. Referential rules (the
 * fixture, its innings and squads, the dismissal vocabulary, ids already accepted) are
 * checked against the ledger in `validate.ts`; these schemas only judge each value alone.
 */

export const SCHEMA_VERSION = "1.0";

export const MAX_EVENTS = 1000;

const reference = (description: string, example: string) =>
  z.string().trim().min(1).max(128).openapi({ description, example });
const count = (max: number, description: string, example: number) =>
  z.number().int().min(0).max(max).openapi({ description, example });
/** An extra is present only when it happened: a zero wide would still make the ball illegal. */
const extra = (description: string) => z.number().int().min(1).max(99).optional().openapi({ description });

/**
 * Zod skips a refinement once any field of the object has a type error, which would hide a
 * cross-field problem (a total that does not add up, say) behind an unrelated one: every
 * problem is to be reported in one pass. So the cross-field checks below run whenever the
 * value is an object, and each one judges only fields that are themselves well typed.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const evenIfBroken = { when: ({ value }: { value: unknown }) => isObject(value) };

const runs = z
  .strictObject({
    offBat: count(99, "Runs scored off the bat.", 4),
    extras: count(99, "Runs from extras: the sum of `extras`.", 0),
    total: count(99, "offBat + extras.", 4),
    nonBoundary: z
      .boolean()
      .optional()
      .openapi({ description: "true when 4 or 6 runs were run, not a boundary.", example: true }),
  })
  .superRefine((r, ctx) => {
    if (![r.offBat, r.extras, r.total].every(Number.isInteger)) return;
    if (r.total !== r.offBat + r.extras)
      ctx.addIssue({ code: "custom", path: ["total"], message: `Must equal offBat + extras (${r.offBat + r.extras})` });
  }, evenIfBroken)
  .openapi("SubmittedRuns");

const extras = z
  .strictObject({
    wides: extra("Wide runs, the wide itself included."),
    noBalls: extra("No-ball runs (the penalty, not runs off the bat)."),
    byes: extra("Byes."),
    legByes: extra("Leg byes."),
    penalty: extra("Penalty runs awarded on this delivery."),
  })
  .openapi("SubmittedExtras", { description: "Only the kinds of extra the delivery had." });

const wicket = z
  .strictObject({
    kind: z.string().trim().min(1).max(60).openapi({
      description: "A term of the dismissal_kind vocabulary (`caught`, `run out`, …).",
      example: "caught",
    }),
    playerOutId: reference("Participant id of the batter out.", SAMPLE.participantId),
    fielders: z
      .array(
        z.strictObject({
          participantId: reference("Fielder's participant id.", "c4487b84"),
          substitute: z.boolean().default(false).openapi({
            description: "Fielding as a substitute: then any registered participant, not only the squad.",
          }),
        }),
      )
      .max(11)
      .default([]),
  })
  .openapi("SubmittedWicket");

/** The delivery itself: shared by a submitted event and a correction's replacement. */
const delivery = {
  inningsId: reference("An innings of the fixture.", SAMPLE.inningsId),
  overNumber: count(999, "Zero-based over.", 5),
  positionInOver: count(99, "Zero-based position in the over, wides and no-balls included.", 2),
  ballNumber: z
    .string()
    .regex(/^\d+\.\d+$/, "Expected <over>.<ball>, e.g. 5.3")
    // null as well as absent, so a state read back from the history or the public reads can be sent as is
    .nullish()
    .openapi({ description: "Display label `<over>.<ball>`; its over must equal overNumber.", example: "5.3" }),
  strikerId: reference("Striker: in the batting side's squad.", SAMPLE.participantId),
  nonStrikerId: reference("Non-striker: in the batting side's squad.", "e2e2a2b1"),
  bowlerId: reference("Bowler: in the fielding side's squad.", SAMPLE.bowlerId),
  runs,
  extras: extras.default({}),
  wickets: z.array(wicket).max(2).default([]).openapi({ description: "Dismissals on this delivery; usually none." }),
};

const BALL_NUMBER = /^\d+\.\d+$/;

/** A malformed label is reported by its own format check, not again here. */
const ballNumberMatchesOver = (e: { ballNumber?: unknown; overNumber: unknown }, ctx: z.RefinementCtx) => {
  if (typeof e.ballNumber !== "string" || !BALL_NUMBER.test(e.ballNumber) || !Number.isInteger(e.overNumber)) return;
  if (Number(e.ballNumber.split(".")[0]) !== e.overNumber)
    ctx.addIssue({ code: "custom", path: ["ballNumber"], message: `Its over must equal overNumber (${e.overNumber})` });
};

const extrasAddUp = (e: { runs: unknown; extras: unknown }, ctx: z.RefinementCtx) => {
  const declared = isObject(e.runs) ? e.runs.extras : undefined;
  const amounts = isObject(e.extras) ? Object.values(e.extras) : [];
  if (
    !Number.isInteger(declared) ||
    !isObject(e.extras) ||
    !amounts.every((a) => a === undefined || Number.isInteger(a))
  )
    return;
  const sum = (amounts as (number | undefined)[]).reduce<number>((total, runs) => total + (runs ?? 0), 0);
  if (sum !== declared)
    ctx.addIssue({ code: "custom", path: ["runs", "extras"], message: `Must equal the sum of extras (${sum})` });
};

const batters = (e: { strikerId: unknown; nonStrikerId: unknown }, ctx: z.RefinementCtx) => {
  if (typeof e.strikerId === "string" && e.strikerId === e.nonStrikerId)
    ctx.addIssue({ code: "custom", path: ["nonStrikerId"], message: "Must differ from strikerId" });
};

/** Identify a submitted event; a correction may repeat them (as the history shows a state), never change them. */
const identity = {
  eventId: z
    .uuid()
    .overwrite((id) => id.toLowerCase())
    .openapi({
      description: "Globally unique delivery id; corrections keep it.",
      example: SAMPLE.eventId,
    }),
  sequenceNumber: z.number().int().min(1).max(1_000_000).openapi({
    description: "Occurrence order within the innings; ascending within each innings of the submission.",
    example: 37,
  }),
};

export const submittedEventSchema = z
  .strictObject({ eventId: identity.eventId, ...delivery, sequenceNumber: identity.sequenceNumber })
  .superRefine(ballNumberMatchesOver, evenIfBroken)
  .superRefine(extrasAddUp, evenIfBroken)
  .superRefine(batters, evenIfBroken)
  .openapi("SubmittedEvent");
export type SubmittedEvent = z.infer<typeof submittedEventSchema>;

/**
 * The order a submission lists deliveries in: by innings, then by sequence. Deliveries
 * gathered in another order (a package's array positions, a batch's approvals) are sorted
 * by it before the submission's checks, which take any other order as out of sequence.
 */
export const submissionOrder = (a: SubmittedEvent, b: SubmittedEvent) =>
  a.inningsId.localeCompare(b.inningsId) || a.sequenceNumber - b.sequenceNumber;

const schemaVersion = z
  .literal(SCHEMA_VERSION, {
    error: (issue) => (issue.input === undefined ? REQUIRED : `Only schemaVersion ${SCHEMA_VERSION} is supported`),
  })
  .openapi({
    description: "Always `1.0`.",
    example: SCHEMA_VERSION,
  });
const fixtureId = reference("The fixture the events belong to.", SAMPLE.fixtureId);

/** The top of a direct submission; each event is checked on its own so one bad event hides nothing. */
export const submissionEnvelopeSchema = z.strictObject({
  fixtureId,
  schemaVersion,
  events: z.array(z.unknown()).min(1, "At least one event is required").max(MAX_EVENTS, `At most ${MAX_EVENTS} events`),
});

export const directSubmissionSchema = submissionEnvelopeSchema
  .extend({
    events: z.array(submittedEventSchema).min(1).max(MAX_EVENTS).openapi({ description: "1 to 1,000 events." }),
  })
  .openapi("DirectSubmission");
export type DirectSubmission = z.infer<typeof directSubmissionSchema>;

export const replacementDeliverySchema = z
  .strictObject({
    ...delivery,
    eventId: identity.eventId.optional().openapi({ description: "May be sent; must be the corrected event's id." }),
    sequenceNumber: identity.sequenceNumber
      .optional()
      .openapi({ description: "May be sent; must be the delivery's own: the sequence is inherited." }),
  })
  .superRefine(ballNumberMatchesOver, evenIfBroken)
  .superRefine(extrasAddUp, evenIfBroken)
  .superRefine(batters, evenIfBroken)
  .openapi("ReplacementDelivery", {
    description:
      "The delivery's whole new state; its sequence is inherited. A state read from the history may be sent as it is.",
  });

export type ReplacementDelivery = z.infer<typeof replacementDeliverySchema>;

/** The delivery as the ledger holds it: no ball label is null there. */
export const ledgerDelivery = ({
  eventId: _eventId,
  sequenceNumber: _sequenceNumber,
  ballNumber,
  ...rest
}: ReplacementDelivery): DeliveryState => ({
  ...rest,
  ballNumber: ballNumber ?? null,
});

export const correctionRequestSchema = z
  .strictObject({
    fixtureId,
    schemaVersion,
    reason: z
      .string()
      .trim()
      .min(1, "A reason is required")
      .max(1000)
      .openapi({ example: "Four, not two: the boundary was confirmed on replay" }),
    event: replacementDeliverySchema,
  })
  .openapi("CorrectionRequest");
export type CorrectionRequest = z.infer<typeof correctionRequestSchema>;
