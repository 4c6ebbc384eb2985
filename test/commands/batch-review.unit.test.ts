import { describe, expect, it } from "vitest";
import { batchDecider } from "../../src/commands/batches/decide.js";
import {
  BatchNotReviewable,
  BatchNotStaged,
  BatchRequestInvalid,
  ItemNotReviewable,
  ReviewIncomplete,
  SelfReviewForbidden,
} from "../../src/commands/batches/errors.js";
import type { MapReferences } from "../../src/commands/batches/resolution.js";
import { approvals, type RecordPublication, type ReviewItems } from "../../src/commands/batches/review.js";
import { type BatchEvent, batchCatalogue, type JudgedItemData } from "../../streams/batch.js";
import { evolveBatch, initialBatchState } from "../../streams/batch-state.js";
import { spec } from "../support/decider.js";

/**
 * The batch decider's resolution, review and publication (docs/batches.md, "Resolution",
 * "Review", "Publication"): given a validated (or staged) batch of four items (0 and 1
 * accepted, 2 rejected, 3 duplicate).
 */

const SENDER = "submitter-1";
const REVIEWER = "admin-2";
const AT = "2026-11-26T07:30:00.000Z";

const event = (type: string, data: unknown) => batchCatalogue.event({ type, data }) as BatchEvent;
const item = (ordinal: number, outcome: JudgedItemData["outcome"]): JudgedItemData => ({
  ordinal,
  path: `fixtures.0.innings.0.events.${ordinal}`,
  eventId: `00000000-0000-4000-8000-00000000000${ordinal}`,
  outcome,
  context: { fixture: null, innings: 0, over: 0, ball: `0.${ordinal + 1}` },
  faults: [],
  requirements: [],
});
const counts = { accepted: 2, rejected: 1, unresolved: 0, duplicate: 1, conflicting: 0 };
const judged = (status: "validated" | "staged" = "validated") => [
  event("BatchReceived", {
    batchReference: "6f1c9a52-3d7e-4b08-9a41-c2e5b7d0f813",
    ownerAccountId: SENDER,
    idempotencyKey: "key-1",
    checksum: "a".repeat(64),
    contractVersion: "1.1",
    packageId: "week-3",
    competitionId: "ipl",
    files: [
      {
        name: "p.json",
        mediaType: "application/json",
        size: 2,
        sha256: "a".repeat(64),
        content: "{}",
        contentEncoding: "utf8",
      },
    ],
  }),
  event("BatchValidationStarted", { itemsTotal: 4 }),
  event("BatchItemsJudged", {
    from: 0,
    items: [item(0, "accepted"), item(1, "accepted"), item(2, "rejected"), item(3, "duplicate")],
  }),
  event("BatchValidated", { status, counts, faults: [] }),
];

const reviewing = (
  items: ReviewItems["items"],
  decision: ReviewItems["decision"] = "approved",
  reviewer = REVIEWER,
) => ({
  type: "ReviewItems" as const,
  reviewerAccountId: reviewer,
  decision,
  reason: decision === "approved" ? "Checked against the scorecard" : "The scorecard disagrees",
  reviewedAt: AT,
  items,
});
const reviewed = (ordinals: number[], decision: ReviewItems["decision"] = "approved") => {
  const { type: _, items: __, ...review } = reviewing(ordinals, decision);
  return event("BatchItemsReviewed", { ...review, ordinals });
};
const publishing = (published: RecordPublication["published"], refused: RecordPublication["refused"] = []) => ({
  type: "RecordPublication" as const,
  publisherAccountId: REVIEWER,
  published,
  refused,
});
const at = (ordinal: number) => ({
  ordinal,
  fixtureId: "1082591",
  eventId: `00000000-0000-4000-8000-00000000000${ordinal}`,
  revision: 1,
});

const batches = spec(batchDecider);

describe("reviewing a validated batch", () => {
  it("records a decision on named accepted items, once each and in order", () =>
    batches
      .given(judged())
      .when(reviewing([1, 0, 1]))
      .thenEmits([reviewed([0, 1])]));

  it("names every accepted item for a whole-batch decision", () =>
    batches
      .given(judged())
      .when(reviewing("all", "rejected"))
      .thenEmits([reviewed([0, 1], "rejected")]));

  it("lets a later decision replace an earlier one, and takes a repeated one as nothing", () => {
    batches
      .given([...judged(), reviewed([0])])
      .when(reviewing([0], "rejected"))
      .thenEmits([reviewed([0], "rejected")]);
    batches
      .given([...judged(), reviewed([0, 1])])
      .when(reviewing([0]))
      .thenEmits([]);
  });

  it("refuses the batch's sender", () =>
    batches
      .given(judged())
      .when(reviewing([0], "approved", SENDER))
      .thenThrows(SelfReviewForbidden));

  it("refuses items validation did not accept, naming each with its outcome", () => {
    batches
      .given(judged())
      .when(reviewing([0, 2, 3]))
      .thenThrows(ItemNotReviewable);
    try {
      batchDecider.decide(reviewing([0, 2, 3]), judged().reduce(evolveBatch, initialBatchState()));
    } catch (error) {
      expect((error as ItemNotReviewable).details).toEqual([
        {
          code: "ITEM_NOT_REVIEWABLE",
          message: "Item 2 is rejected: only accepted items are reviewed",
          field: "items.1",
        },
        {
          code: "ITEM_NOT_REVIEWABLE",
          message: "Item 3 is duplicate: only accepted items are reviewed",
          field: "items.2",
        },
      ]);
    }
  });

  it("refuses ordinals the batch has not", () =>
    batches
      .given(judged())
      .when(reviewing([4]))
      .thenThrows(BatchRequestInvalid));

  it("refuses a staged batch, one still validating, and a published one", () => {
    batches
      .given(judged("staged"))
      .when(reviewing([0]))
      .thenThrows(BatchNotReviewable);
    batches
      .given(judged().slice(0, 3))
      .when(reviewing([0]))
      .thenThrows(BatchNotReviewable);
    const published = event("BatchPublished", { status: "partially_published", published: [at(0)], refused: [] });
    batches
      .given([...judged(), reviewed([0]), reviewed([1], "rejected"), published])
      .when(reviewing([1]))
      .thenThrows(BatchNotReviewable);
  });
});

describe("recording a publication", () => {
  const decided = [...judged(), reviewed([0]), reviewed([1], "rejected")];

  it("is partially published when some items are published and some are not", () =>
    batches
      .given(decided)
      .when(publishing([at(0)]))
      .thenEmits([event("BatchPublished", { status: "partially_published", published: [at(0)], refused: [] })]));

  it("is rejected when nothing is published", () =>
    batches
      .given(decided)
      .when(publishing([], [{ ordinal: 0, code: "EVENT_CONFLICT", message: "Taken" }]))
      .thenEmits([
        event("BatchPublished", {
          status: "rejected",
          published: [],
          refused: [{ ordinal: 0, code: "EVENT_CONFLICT", message: "Taken" }],
        }),
      ]));

  it("is recorded once: a retry appends nothing", () => {
    const published = event("BatchPublished", { status: "partially_published", published: [at(0)], refused: [] });
    batches
      .given([...decided, published])
      .when(publishing([at(0)]))
      .thenEmits([]);
  });

  it("waits until every accepted item has a decision", () =>
    batches
      .given([...judged(), reviewed([0])])
      .when(publishing([at(0)]))
      .thenThrows(ReviewIncomplete));

  it("is not the sender's to do", () =>
    batches
      .given(decided)
      .when({ ...publishing([at(0)]), publisherAccountId: SENDER })
      .thenThrows(SelfReviewForbidden));
});

describe("mapping a staged batch's references", () => {
  const mapping = (entityId = "player-7"): MapReferences => ({
    type: "MapReferences",
    mappings: [{ referencePath: "fixtures.0.innings.0.events.1.striker", referenceType: "participant", entityId }],
    mappedByAccountId: SENDER,
    mappedAt: AT,
  });
  const { type: _, ...mapped } = mapping();

  it("records the mappings, and the batch is validated again in a new round", () => {
    batches
      .given(judged("staged"))
      .when(mapping())
      .thenEmits([event("BatchReferencesMapped", mapped)]);
    const state = [...judged("staged"), event("BatchReferencesMapped", mapped)].reduce(
      evolveBatch,
      initialBatchState(),
    );
    expect(state).toMatchObject({ round: 1, validation: null });
    expect(state?.mappings.get("fixtures.0.innings.0.events.1.striker")).toEqual({
      referenceType: "participant",
      entityId: "player-7",
    });
  });

  it("takes mappings that already stand as nothing, and lets another choice replace one", () => {
    const again = [...judged("staged"), event("BatchReferencesMapped", mapped), ...judged("staged").slice(1)];
    batches.given(again).when(mapping()).thenEmits([]);
    batches
      .given(again)
      .when(mapping("player-8"))
      .thenEmits([
        event("BatchReferencesMapped", { ...mapped, mappings: [{ ...mapped.mappings[0], entityId: "player-8" }] }),
      ]);
  });

  it("refuses a batch that is not staged: validated, still validating, or published", () => {
    batches.given(judged()).when(mapping()).thenThrows(BatchNotStaged);
    batches.given(judged("staged").slice(0, 2)).when(mapping()).thenThrows(BatchNotStaged);
    batches
      .given([
        ...judged(),
        reviewed([0, 1]),
        event("BatchPublished", { status: "published", published: [at(0), at(1)], refused: [] }),
      ])
      .when(mapping())
      .thenThrows(BatchNotStaged);
  });

  it("takes a validation step of an earlier round as nothing: its validator judged without the mappings", () => {
    const remapped = [...judged("staged"), event("BatchReferencesMapped", mapped)];
    batches.given(remapped).when({ type: "StartValidation", round: 0, itemsTotal: 4 }).thenEmits([]);
    batches
      .given(remapped)
      .when({ type: "StartValidation", round: 1, itemsTotal: 4 })
      .thenEmits([event("BatchValidationStarted", { itemsTotal: 4, round: 1 })]);
    const started = [...remapped, event("BatchValidationStarted", { itemsTotal: 4, round: 1 })];
    batches
      .given(started)
      .when({ type: "JudgeItems", round: 0, from: 0, items: [item(0, "accepted")] })
      .thenEmits([]);
    batches
      .given(started)
      .when({ type: "CompleteValidation", round: 0, status: "validated", counts, faults: [] })
      .thenEmits([]);
  });
});

describe("a resubmission's new round", () => {
  it("publishes an approval only while its item is still accepted", () => {
    const resubmitted = event("BatchItemsResubmitted", {
      items: [{ ordinal: 1, event: {} }],
      resubmittedByAccountId: SENDER,
      resubmittedAt: AT,
    });
    // the replacement reused item 0's event id: the new round judges item 0 a duplicate
    const round = [
      event("BatchValidationStarted", { itemsTotal: 4, round: 1 }),
      event("BatchItemsJudged", {
        from: 0,
        round: 1,
        items: [item(0, "duplicate"), item(1, "accepted"), item(2, "rejected"), item(3, "duplicate")],
      }),
      event("BatchValidated", { status: "validated", counts, faults: [], round: 1 }),
    ];
    const history = [...judged(), reviewed([0, 1]), resubmitted, ...round, reviewed([1])];
    const state = history.reduce(evolveBatch, initialBatchState());
    expect([...approvals(state as NonNullable<typeof state>, REVIEWER).keys()]).toEqual([1]);
  });
});
