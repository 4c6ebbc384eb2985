import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { publishItems } from "../../src/commands/batches/publish.js";
import { importFixture } from "../../src/commands/fixtures/import-fixture.js";
import { JSON_SOURCE, submitDeliveries } from "../../src/commands/submissions/submit.js";
import { mapMatch } from "../../src/ingest/cricsheet/map.js";
import { cricsheetMatchSchema } from "../../src/ingest/cricsheet/schema.js";
import type { SubmittedEvent } from "../../src/submissions/schema.js";
import { evolveAccount, initialAccountState } from "../../streams/account-state.js";
import { UnknownEventType } from "../../streams/catalogue.js";
import { evolveConsumer, initialConsumerState } from "../../streams/consumer-state.js";
import { type FixtureEvent, fixtureCatalogue, fixtureEvents } from "../../streams/fixture.js";
import { evolveFixture, initialFixtureState } from "../../streams/fixture-state.js";
import { aFixture } from "../support/cricket-builders.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { submission, validEvents } from "../support/submissions.js";

/** A real match as Cricsheet first issued it, and re-issued with one delivery and the outcome changed. */
function cricsheetLedger(): FixtureEvent[] {
  const raw = JSON.parse(readFileSync(cricsheetFile("t20i/1298152.json"), "utf8"));
  const first = mapMatch("1298152", cricsheetMatchSchema.parse(raw)).fixture;
  raw.meta.revision = 2;
  const ball = raw.innings[1]?.overs?.[0]?.deliveries[1];
  if (ball) ball.runs = { batter: 6, extras: 0, total: 6 };
  raw.info.outcome = { winner: "South Africa", by: { wickets: 5 }, method: "D/L" };
  const second = mapMatch("1298152", cricsheetMatchSchema.parse(raw)).fixture;
  const imported = importFixture.decide({ content: first }, importFixture.initialState());
  const state = imported.reduce(evolveFixture, importFixture.initialState());
  return [...imported, ...importFixture.decide({ content: second }, state)];
}

/** A built fixture, a correction of one of its deliveries, a direct submission to it, and a batch's delivery published into it. */
function submittedLedger(): FixtureEvent[] {
  const fixture = aFixture().withInnings({ deliveries: 6 }).withInnings({ deliveries: 0 }).withOutcome();
  const given = [
    ...fixture.ledger(),
    ...fixture.correction(fixture.deliveries[2]?.eventId as string, {
      bowlerId: fixture.away.players[3]?.id as string,
    }),
  ];
  const record = {
    submissionId: "5f0c8f7e-2b1a-4c3d-9e8f-7a6b5c4d3e2f",
    submitterId: "admin-1",
    receivedAt: "2026-01-02T03:04:05.000Z",
    upload: null,
  };
  const body = submission(fixture, validEvents(fixture, 2, { ordinal: 1 }));
  const facts = { dismissalKinds: new Set(["caught"]), registered: new Set<string>(), accepted: new Set<string>() };
  const submitted = [
    ...given,
    ...submitDeliveries.decide(
      { body, source: JSON_SOURCE, facts, record },
      given.reduce(evolveFixture, initialFixtureState()),
    ),
  ].map((e) => fixtureCatalogue.event(e));
  const [event] = validEvents(fixture, 1, { ordinal: 1, from: 3 }) as unknown as SubmittedEvent[];
  const review = {
    reviewerAccountId: "admin-2",
    decision: "approved" as const,
    reason: "ok",
    reviewedAt: record.receivedAt,
  };
  const publication = {
    fixtureId: fixture.id,
    batchReference: "6f1c9a52-3d7e-4b08-9a41-c2e5b7d0f813",
    items: [{ ordinal: 0, review, event: event as SubmittedEvent }],
    facts,
  };
  return [...submitted, ...publishItems.decide(publication, submitted.reduce(evolveFixture, initialFixtureState()))];
}

describe("evolving a fixture", () => {
  it("folds every event type of a real recorded fixture, each read back through the fixture catalogue", () => {
    const ledger = [...cricsheetLedger(), ...submittedLedger()].map((e) => fixtureCatalogue.event(e));
    expect(new Set(ledger.map((e) => e.type))).toEqual(new Set(fixtureEvents.map((d) => d.type)));
    for (const history of [cricsheetLedger(), submittedLedger()]) {
      const state = history.map((e) => fixtureCatalogue.event(e)).reduce(evolveFixture, initialFixtureState());
      const recorded = history.filter((e) => e.type === "DeliveryRecorded").length;
      expect(state.deliveries.size).toBe(recorded);
      expect(state.outcome).not.toBeNull();
    }
  });

  it("keeps the latest revision a correction or a re-issued source set", () => {
    const state = cricsheetLedger().reduce(evolveFixture, initialFixtureState());
    expect(state.sourceRevision).toBe(2);
    expect([...state.deliveries.values()].filter((d) => d.revision === 2)).toHaveLength(1);
  });

  it("does not compile, and throws, for an event of another stream", () => {
    const accountEvent = { type: "AccountCreated", data: { accountId: "a", subject: "s", displayName: "A" } };
    // @ts-expect-error an account event is no fixture event
    expect(() => evolveFixture(initialFixtureState(), accountEvent)).toThrow(/unreachable/);
    expect(() => fixtureCatalogue.event(accountEvent)).toThrow(UnknownEventType);
  });

  it("does not compile for data of the wrong shape", () => {
    // @ts-expect-error DeliveryCorrected carries its delivery's state, not a bare eventId
    evolveFixture(initialFixtureState(), { type: "DeliveryCorrected", data: { eventId: "e" } });
    // @ts-expect-error the type names the data: SquadNamed has no inningsId
    evolveFixture(initialFixtureState(), { type: "SquadNamed", data: { inningsId: "i" } });
  });

  it("reads a narrowed event's data as its definition's", () => {
    const event = fixtureCatalogue.event({
      type: "FixtureSourceRevised",
      data: { revision: 2, createdOn: "2024-01-02" },
    });
    if (event.type === "FixtureSourceRevised")
      expectTypeOf(event.data).toEqualTypeOf<{ revision: number; createdOn: string; dataVersion?: string }>();
  });
});

describe("evolving accounts and consumers", () => {
  it("does not compile, and throws, for a type of no account or consumer event", () => {
    const created = { accountId: "a", subject: "s", displayName: "A" };
    const account = evolveAccount(initialAccountState(), { type: "AccountCreated", data: created });
    // @ts-expect-error a consumer event is no account event
    expect(() => evolveAccount(account, { type: "ApiKeyIssued", data: { keyId: 1 } })).toThrow(/unreachable/);
    // @ts-expect-error ConsumerIssued needs its owner and limits
    evolveConsumer(initialConsumerState(), { type: "ConsumerIssued", data: { consumerId: 1 } });
  });
});
