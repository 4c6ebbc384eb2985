import { describe, expect, it } from "vitest";
import {
  type ApprovedItem,
  type PublishItems,
  planPublication,
  publishItems,
} from "../../src/commands/batches/publish.js";
import { ledgerDelivery, type SubmittedEvent } from "../../src/submissions/schema.js";
import type { Review } from "../../streams/batch.js";
import { type FixtureEvent, fixtureCatalogue, recordDelivery } from "../../streams/fixture.js";
import type { FixtureBuilder } from "../support/cricket-builders.js";
import { spec } from "../support/decider.js";
import { anOpenFixture, KINDS, validEvents } from "../support/submission-events.js";

/**
 * Publication into one fixture (src/commands/batches/publish.ts): given the fixture's
 * stream, when approved items of a batch, then the batch's record and the ledger events of
 * what still fits the ledger, and nothing twice.
 */

const BATCH = "6f1c9a52-3d7e-4b08-9a41-c2e5b7d0f813";
const review: Review = {
  reviewerAccountId: "admin-2",
  decision: "approved",
  reason: "Checked against the scorecard",
  reviewedAt: "2026-11-26T07:30:00.000Z",
};

const fixture: FixtureBuilder = anOpenFixture();
const [first, second, third, fourth] = validEvents(fixture, 4) as unknown as SubmittedEvent[] as [
  SubmittedEvent,
  SubmittedEvent,
  SubmittedEvent,
  SubmittedEvent,
];
const recorded = (e: SubmittedEvent) =>
  fixtureCatalogue.event(
    recordDelivery({ ...ledgerDelivery(e), eventId: e.eventId, sequenceNumber: e.sequenceNumber, submissionId: null }),
  ) as FixtureEvent;
/** The ledger: the fixture set up, its first two deliveries published. */
const given = [...fixture.ledger(), recorded(first), recorded(second)];

const publishing = (items: ApprovedItem[]): PublishItems => ({
  fixtureId: fixture.id,
  batchReference: BATCH,
  items,
  facts: {
    dismissalKinds: new Set(KINDS),
    registered: new Set([...fixture.home.players, ...fixture.away.players].map((p) => p.id)),
    accepted: new Set(),
  },
});
const fourRuns = (e: SubmittedEvent): SubmittedEvent => ({
  ...e,
  runs: { offBat: 4, extras: 0, total: 4 },
  wickets: [],
});

const publish = spec(publishItems);

describe("publishing a batch's approved items into a fixture", () => {
  it("records the batch, then each new delivery and each correction's next revision", () =>
    publish
      .given(given)
      .when(
        publishing([
          { ordinal: 0, review, event: third },
          { ordinal: 1, review, event: fourRuns(first), correctsEventId: first.eventId },
        ]),
      )
      .thenEmits([
        {
          type: "BatchItemsPublished",
          data: {
            batchReference: BATCH,
            items: [
              { ordinal: 0, eventId: third.eventId, revision: 1 },
              { ordinal: 1, eventId: first.eventId, revision: 2 },
            ],
            reviews: [
              {
                reviewerAccountId: review.reviewerAccountId,
                reason: review.reason,
                reviewedAt: review.reviewedAt,
                ordinals: [0, 1],
              },
            ],
          },
        },
        recordDelivery({ ...ledgerDelivery(third), eventId: third.eventId, sequenceNumber: 3, submissionId: null }),
        {
          type: "DeliveryCorrected",
          data: {
            eventId: first.eventId,
            revision: 2,
            reason: review.reason,
            delivery: ledgerDelivery(fourRuns(first)),
          },
        },
      ]));

  it("leaves out what no longer fits the ledger, saying why, and publishes the rest", () => {
    const command = publishing([
      // the ledger took its place since validation
      { ordinal: 0, review, event: { ...third, sequenceNumber: 2, positionInOver: 1, ballNumber: "0.2" } },
      { ordinal: 1, review, event: fourth },
      // identical to the live state: nothing to change
      { ordinal: 2, review, event: second, correctsEventId: second.eventId },
    ]);
    const state = () => given.reduce(publishItems.evolve, publishItems.initialState());
    expect(planPublication(command, state()).refused.map((r) => [r.ordinal, r.code])).toEqual([
      [0, "EVENT_CONFLICT"],
      [2, "CORRECTION_UNCHANGED"],
    ]);
    const events = publishItems.decide(command, state());
    expect(events.map((e) => e.type)).toEqual(["BatchItemsPublished", "DeliveryRecorded"]);
    expect(events[0]?.data).toMatchObject({ items: [{ ordinal: 1, eventId: fourth.eventId, revision: 1 }] });
  });

  it("publishes nothing twice: a retry after the append stood appends nothing", () => {
    const command = publishing([{ ordinal: 0, review, event: third }]);
    const first = publishItems.decide(command, given.reduce(publishItems.evolve, publishItems.initialState()));
    const after = [...given, ...first.map((e) => fixtureCatalogue.event(e) as FixtureEvent)];
    publish.given(after).when(command).thenEmits([]);
  });

  it("publishes new deliveries in their innings' order, whatever order the approvals came in", () => {
    // approved one at a time, the later ball first
    const command = publishing([
      { ordinal: 1, review, event: fourth },
      { ordinal: 0, review, event: third },
    ]);
    const plan = planPublication(command, given.reduce(publishItems.evolve, publishItems.initialState()));
    expect(plan.refused).toEqual([]);
    expect(plan.published.map((p) => p.eventId)).toEqual([third.eventId, fourth.eventId]);
  });
});
