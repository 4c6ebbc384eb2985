import { z } from "zod";
import { sourceId } from "../../../streams/shared.js";
import type { Problem } from "../../commands/errors.js";
import { zodDetails } from "../../commands/problems.js";

/**
 * The batch package, versions 1.0 and 1.1, as validation reads it (docs/batches.md, "The
 * package"). Structure only: what the references name, and whether the deliveries fit the
 * ledger, are judged against the read models and the fixtures' streams afterwards.
 */

const name = z.string().trim().min(1).max(200);

/** A reference: a sourceId, readable names, or both. */
const reference = z
  .strictObject({
    sourceId: sourceId.optional(),
    context: z.looseObject({ name: name.optional() }).optional(),
  })
  .refine((r) => r.sourceId !== undefined || r.context?.name !== undefined, "Give a sourceId or a context.name");
export type PackageReference = z.infer<typeof reference>;

/** Competitions and teams are named (a source-only reference to either is refused). */
export const namedReference = z.strictObject({ sourceId: sourceId.optional(), context: z.looseObject({ name }) });

const count = (max: number) => z.number().int().min(0).max(max);
const extra = z.number().int().min(1).max(99).optional();

const wicket = z.strictObject({
  kind: z.string().trim().min(1).max(60),
  playerOut: reference,
  fielders: z
    .array(z.strictObject({ participant: reference, substitute: z.boolean().default(false) }))
    .max(11)
    .default([]),
});

const BALL_LABEL = /^(\d+)\.(\d+)$/;

const event = z
  .strictObject({
    eventId: z.uuid().overwrite((id) => id.toLowerCase()),
    occurrenceSequence: z.number().int().min(1).max(1_000_000),
    overNumber: count(999),
    positionInOver: count(99),
    ballLabel: z.string().regex(BALL_LABEL, "Expected <over>.<ball>, e.g. 5.3").optional(),
    striker: reference,
    nonStriker: reference,
    bowler: reference,
    runs: z.strictObject({
      offBat: count(99),
      extras: count(99),
      total: count(99),
      nonBoundary: z.boolean().optional(),
    }),
    extras: z.strictObject({ wides: extra, noBalls: extra, byes: extra, legByes: extra, penalty: extra }).default({}),
    wickets: z.array(wicket).max(2).default([]),
    operation: z.literal("correction").optional(),
    correctsEventId: z
      .uuid()
      .overwrite((id) => id.toLowerCase())
      .optional(),
  })
  .superRefine((e, ctx) => {
    const over = e.ballLabel === undefined ? undefined : BALL_LABEL.exec(e.ballLabel)?.[1];
    if (over !== undefined && Number(over) !== e.overNumber)
      ctx.addIssue({
        code: "custom",
        path: ["ballLabel"],
        message: `Its over must equal overNumber (${e.overNumber})`,
      });
    if (e.operation === "correction" && e.correctsEventId === undefined)
      ctx.addIssue({ code: "custom", path: ["correctsEventId"], message: "A correction names the event it corrects" });
    if (e.operation === undefined && e.correctsEventId !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["operation"],
        message: 'Only an operation "correction" names correctsEventId',
      });
  });
export type PackageEvent = z.infer<typeof event>;

const innings = z.strictObject({
  sourceId: sourceId.optional(),
  context: z.strictObject({ ordinal: z.number().int().min(0).max(20), battingTeam: namedReference }),
  // Each event is read on its own: a malformed one is a rejected item, not a lost package.
  events: z.array(z.unknown()).min(1),
});
export type PackageInnings = z.infer<typeof innings>;

/** 1.1's proposal: what a canonical fixture would be created from when the fixture is unknown. */
const proposal = z.strictObject({
  endDate: z.iso.date(),
  matchType: z.literal("T20", { error: "The UI fixes matchType to T20" }),
  teamType: z.enum(["club", "international"]),
  gender: z.enum(["female", "male"]),
  ballsPerOver: z.number().int().min(1).max(12),
  outcome: z.strictObject({
    result: z.enum(["won", "tie", "draw", "no result"]),
    winner: namedReference.optional(),
  }),
  sourceVersion: z.string().trim().min(1).max(100),
  sourceRevision: z.number().int().min(1),
});

const fixture = z.strictObject({
  sourceId: sourceId.optional(),
  season: reference.optional(),
  context: z.strictObject({ date: z.iso.date(), teams: z.array(namedReference).length(2) }),
  innings: z.array(z.unknown()).min(1),
  proposal: proposal.optional(),
});
export type PackageFixture = z.infer<typeof fixture>;

const head = z.strictObject({
  contractVersion: z.enum(["1.0", "1.1"]),
  packageId: name,
  competition: namedReference,
  season: reference.optional(),
  fixtures: z.array(z.unknown()).min(1),
});

/**
 * A fault of the package: a rule code, what is wrong, and the JSON path where (in `file`, for
 * a package of several; and at a `row` and `column` of a `sheet`, for a table).
 */
export type Fault = {
  code: string;
  message: string;
  path: string;
  file?: string;
  sheet?: string;
  row?: number;
  column?: string;
};

/** One delivery of the package, as read: its place, and the event when it is well formed. */
export type Item = {
  /** Position in the package's reading order (fixtures, innings, events), from 0: a report's order, never identity. */
  ordinal: number;
  path: string;
  fixtureIndex: number;
  inningsIndex: number;
  event: PackageEvent | undefined;
  faults: Fault[];
};

/** A fixture of the package with its innings, each read on its own. */
export type ReadFixture = {
  index: number;
  value: PackageFixture | undefined;
  innings: (PackageInnings | undefined)[];
};

export type ReadPackage = {
  contractVersion: "1.0" | "1.1" | undefined;
  /** The head's season: the season of each fixture that names none of its own. */
  season: PackageReference | undefined;
  fixtures: ReadFixture[];
  items: Item[];
  /** Faults outside any delivery: of the head, a fixture or an innings. */
  faults: Fault[];
  /**
   * The entity the batch's mappings chose for a reference, by the reference's path in the
   * package (docs/batches.md, "Resolution"): none for a package just read.
   */
  mappings: ReadonlyMap<string, string>;
};

const located = (prefix: string) => (path: string[]) => ({
  field: [prefix, ...path].filter(Boolean).join(".") || "package",
});
const asFault = (p: Problem): Fault => ({ code: p.code, message: p.message, path: p.field });
const faultsOf = (error: z.ZodError, prefix: string) => zodDetails(error, located(prefix)).map(asFault);
const list = (value: unknown, key: string): unknown[] => {
  const inner = (value as Record<string, unknown> | null)?.[key];
  return Array.isArray(inner) ? inner : [];
};

/**
 * Reads a package level by level, so that one malformed event is one rejected item and a
 * malformed fixture rejects only its own deliveries: every fault is found in one pass.
 * `replacements` (the batch's resubmitted items, by ordinal) are read in their items' places.
 */
export function readPackage(body: unknown, replacements: ReadonlyMap<number, unknown> = new Map()): ReadPackage {
  const top = head.safeParse(body);
  const faults = top.success ? [] : faultsOf(top.error, "");
  const fixtures: ReadFixture[] = [];
  const items: Item[] = [];
  list(body, "fixtures").forEach((rawFixture, i) => {
    const where = `fixtures.${i}`;
    const f = fixture.safeParse(rawFixture);
    if (!f.success) faults.push(...faultsOf(f.error, where));
    const read: ReadFixture = { index: i, value: f.success ? f.data : undefined, innings: [] };
    list(rawFixture, "innings").forEach((rawInnings, j) => {
      const inningsAt = `${where}.innings.${j}`;
      const inn = innings.safeParse(rawInnings);
      if (!inn.success) faults.push(...faultsOf(inn.error, inningsAt));
      read.innings.push(inn.success ? inn.data : undefined);
      list(rawInnings, "events").forEach((rawEvent, k) => {
        const path = `${inningsAt}.events.${k}`;
        const e = event.safeParse(replacements.get(items.length) ?? rawEvent);
        items.push({
          ordinal: items.length,
          path,
          fixtureIndex: i,
          inningsIndex: j,
          event: e.success ? e.data : undefined,
          faults: e.success ? [] : faultsOf(e.error, path),
        });
      });
    });
    fixtures.push(read);
  });
  // Read on its own: an unexpected field beside it is a fault of the head, not of the version.
  const version = (body as Record<string, unknown> | null)?.contractVersion;
  const contractVersion = version === "1.0" || version === "1.1" ? version : undefined;
  if (contractVersion === "1.1") faults.push(...fixtures.flatMap(versionFaults));
  markRepeats(items);
  const season = reference.optional().safeParse((body as Record<string, unknown> | null)?.season);
  return {
    contractVersion,
    season: season.success ? season.data : undefined,
    fixtures,
    items,
    faults,
    mappings: new Map(),
  };
}

/** 1.1 asks each fixture for its source id and a whole proposal, whose dates and outcome agree. */
function versionFaults({ index, value: f }: ReadFixture): Fault[] {
  if (!f) return [];
  const where = `fixtures.${index}`;
  const faults: Fault[] = [];
  if (f.sourceId === undefined)
    faults.push({
      code: "FIXTURE_SOURCE_ID_REQUIRED",
      message: "Contract 1.1 requires the fixture's sourceId",
      path: `${where}.sourceId`,
    });
  if (f.proposal === undefined)
    faults.push({
      code: "PROPOSAL_REQUIRED",
      message: "Contract 1.1 requires the fixture's proposal",
      path: `${where}.proposal`,
    });
  else {
    if (f.proposal.endDate < f.context.date)
      faults.push({
        code: "PROPOSAL_INVALID",
        message: `endDate precedes the fixture's date (${f.context.date})`,
        path: `${where}.proposal.endDate`,
      });
    if (f.proposal.outcome.result === "won" && f.proposal.outcome.winner === undefined)
      faults.push({
        code: "PROPOSAL_INVALID",
        message: "A won outcome names its winner",
        path: `${where}.proposal.outcome.winner`,
      });
  }
  return faults;
}

/** An event id once in the package; an occurrence sequence once in its innings: each repeat is a fault of its item. */
function markRepeats(items: Item[]): void {
  const ids = new Map<string, string>();
  const sequences = new Map<string, string>();
  for (const item of items) {
    if (!item.event) continue;
    const first = ids.get(item.event.eventId);
    if (first !== undefined)
      item.faults.push({
        code: "DUPLICATE_EVENT_ID",
        message: `The event id is also at ${first}`,
        path: `${item.path}.eventId`,
      });
    else ids.set(item.event.eventId, item.path);
    const key = `${item.fixtureIndex}.${item.inningsIndex}.${item.event.occurrenceSequence}`;
    const before = sequences.get(key);
    if (before !== undefined)
      item.faults.push({
        code: "DUPLICATE_OCCURRENCE_SEQUENCE",
        message: `The innings already has occurrenceSequence ${item.event.occurrenceSequence} at ${before}`,
        path: `${item.path}.occurrenceSequence`,
      });
    else sequences.set(key, item.path);
  }
}

/**
 * The whole package as one JSON Schema (draft 2020-12), for checking a package before it is
 * sent (the web UI's upload form): the structure above, nested to the events. What zod
 * refines (a reference's sourceId or name, a ball label's over, a correction's target) and
 * everything judged against the ledger are left to validation, which reports them.
 */
export function packageJsonSchema(): Record<string, unknown> {
  const whole = head.extend({
    fixtures: z
      .array(fixture.extend({ innings: z.array(innings.extend({ events: z.array(event).min(1) })).min(1) }))
      .min(1),
  });
  return z.toJSONSchema(whole, { io: "input", unrepresentable: "any", target: "draft-2020-12" });
}
