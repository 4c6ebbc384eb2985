import { describe, expect, it } from "vitest";
import { byEvent } from "../../src/commands/errors.js";
import {
  type CorrectionTarget,
  checkCorrection as checkCorrectionOf,
  checkSubmission as checkSubmissionOf,
  type Findings,
  type ReferenceFacts,
} from "../../src/submissions/validate.js";
import { evolveFixture, type FixtureState, initialFixtureState } from "../../streams/fixture-state.js";
import { aParticipant, type FixtureBuilder } from "../support/cricket-builders.js";
import { invalid, participant, sortedAs, type Where, withEvent } from "../support/submission-details.js";
import { anOpenFixture, KINDS, type SubmittedEvent, submission, validEvents } from "../support/submissions.js";

/**
 * The checks of a direct submission and of a correction, alone: hand-built ledger facts (a
 * fixture folded from its builder's events), no database. Every expectation names exact
 * codes, fields and event indexes, so a check that is missing, misplaced or extra fails.
 */

/** The fixture as its own stream stands: its builder's fixture events folded. */
const stateOf = (fixture: FixtureBuilder) => fixture.ledger().reduce(evolveFixture, initialFixtureState());

const substitute = aParticipant(); // registered, in neither squad

/** What the checks are given: the fixture's state (null: no such fixture) and the read models' facts. */
type LedgerFacts = ReferenceFacts & { fixture: FixtureState | null };

/** The findings as one verdict: the value, or every problem (invalid and conflicting) in answer order. */
function verdict<T>(findings: Findings<T>): { ok: true; value: T } | { ok: false; details: Findings<T>["invalid"] } {
  const details = byEvent([...findings.invalid, ...findings.conflicts]);
  if (findings.value !== undefined && details.length === 0) return { ok: true, value: findings.value };
  return { ok: false, details };
}

const checkSubmission = (body: unknown, { fixture, ...facts }: LedgerFacts) =>
  verdict(checkSubmissionOf(body, fixture ?? initialFixtureState(), facts));

/** A correction of the first delivery of `owner`'s fixture. */
const checkCorrection = (body: unknown, owner: string, { fixture, ...facts }: LedgerFacts) => {
  const state = fixture ?? initialFixtureState();
  const [eventId, first] = [...state.deliveries][0] ?? [];
  const target: CorrectionTarget = {
    fixtureId: owner,
    eventId: eventId ?? "",
    sequenceNumber: first?.sequenceNumber ?? 1,
  };
  return verdict(checkCorrectionOf(body, target, state, facts));
};

function factsFor(fixture: FixtureBuilder | null, more: Partial<LedgerFacts> = {}): LedgerFacts {
  const players = fixture ? [...fixture.home.players, ...fixture.away.players] : [];
  return {
    fixture: fixture ? stateOf(fixture) : null,
    dismissalKinds: new Set(KINDS),
    registered: new Set([substitute, ...players].map((p) => p.id)),
    accepted: new Set(),
    ...more,
  };
}

/**
 * The problems found, as code, field and event index (the message is prose), after checking
 * they come ordered by eventIndex with the top-level ones first. Within one event the order
 * is not part of the contract, so they are returned sorted (compare with `sortedAs`).
 */
function problems(body: unknown, facts: LedgerFacts): Where[] {
  const checked = checkSubmission(body, facts);
  if (checked.ok) return [];
  expect(checked.details.length).toBeGreaterThan(0);
  const indexes = checked.details.map((d) => d.eventIndex ?? -1);
  expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
  return sortedAs(
    checked.details.map(({ code, field, eventIndex }) => ({
      code,
      field,
      ...(eventIndex === undefined ? {} : { eventIndex }),
    })),
  );
}

/** A fixture with two open innings and `count` valid events of its first. */
function scene(count = 4, matchType?: "Test") {
  const fixture = anOpenFixture({ matchType });
  const first = fixture.innings[0] as FixtureBuilder["innings"][0];
  const events = validEvents(fixture, count);
  return {
    fixture,
    events,
    batter: (i: number) => first.batting.players[i]?.id as string,
    fielder: (i: number) => first.bowling.players[i]?.id as string,
    facts: factsFor(fixture),
  };
}

describe("checkSubmission: a valid submission", () => {
  it("is accepted, normalised: event ids lower case, absent extras, wickets and substitute flags filled in", () => {
    const { fixture, events, facts, batter, fielder } = scene(3);
    const upper = events.map((e) => ({ ...e, eventId: e.eventId.toUpperCase() }));
    const { extras: _x, wickets: _w, ...bare } = upper[0] as SubmittedEvent;
    const caught = {
      ...(upper[1] as SubmittedEvent),
      wickets: [{ kind: "caught", playerOutId: batter(0), fielders: [{ participantId: fielder(3) }] }],
    };
    const checked = checkSubmission(submission(fixture, [bare, caught, upper[2]]), facts);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.fixtureId).toBe(fixture.id);
    expect(checked.value.events.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(checked.value.events[0]).toMatchObject({ extras: {}, wickets: [] });
    expect(checked.value.events[1]?.wickets).toEqual([
      { kind: "caught", playerOutId: batter(0), fielders: [{ participantId: fielder(3), substitute: false }] },
    ]);
  });

  it("accepts a registered substitute fielder from outside both squads", () => {
    const { fixture, events, facts, batter } = scene(2);
    const body = submission(
      fixture,
      withEvent(events, 1, (e) => {
        e.wickets = [
          { kind: "run out", playerOutId: batter(1), fielders: [{ participantId: substitute.id, substitute: true }] },
        ];
      }),
    );
    expect(problems(body, facts)).toEqual([]);
  });

  it("lets each innings keep its own order: interleaved innings are fine", () => {
    const { fixture, events, facts } = scene(3);
    const others = validEvents(fixture, 3, { ordinal: 1 });
    const interleaved = [events[0], others[0], events[1], others[1], others[2], events[2]];
    expect(problems(submission(fixture, interleaved), facts)).toEqual([]);
  });
});

describe("checkSubmission: one problem, one detail", () => {
  const cases: [string, (s: ReturnType<typeof scene>) => unknown[], Where[]][] = [
    ["a missing field", (s) => withEvent(s.events, 1, (e) => delete e.strikerId), [invalid("strikerId", 1)]],
    ["a mistyped field", (s) => withEvent(s.events, 1, (e) => (e.overNumber = "0")), [invalid("overNumber", 1)]],
    [
      "a fractional number",
      (s) => withEvent(s.events, 2, (e) => (e.positionInOver = 2.5)),
      [invalid("positionInOver", 2)],
    ],
    [
      "an out-of-range value",
      (s) => withEvent(s.events, 0, (e) => (e.sequenceNumber = 0)),
      [invalid("sequenceNumber", 0)],
    ],
    [
      "runs out of range",
      (s) => withEvent(s.events, 1, (e) => (e.runs = { offBat: -1, extras: 1, total: 0 })),
      [invalid("runs.offBat", 1), invalid("runs.extras", 1)],
    ],
    ["an extra of 0", (s) => withEvent(s.events, 1, (e) => (e.extras = { wides: 0 })), [invalid("extras.wides", 1)]],
    [
      "an unexpected field in an event",
      (s) => withEvent(s.events, 1, (e) => (e.colour = "red")),
      [invalid("colour", 1)],
    ],
    [
      "an unexpected field in runs",
      (s) => withEvent(s.events, 1, (e) => ((e.runs as Record<string, unknown>).fours = 1)),
      [invalid("runs.fours", 1)],
    ],
    [
      "an unexpected kind of extra",
      (s) => withEvent(s.events, 1, (e) => (e.extras = { overthrows: 1 })),
      [invalid("extras.overthrows", 1)],
    ],
    [
      "an unexpected field in a wicket",
      (s) => withEvent(s.events, 1, (e) => (e.wickets = [{ ...caughtBy(s), note: "x" }])),
      [invalid("wickets.0.note", 1)],
    ],
    [
      "an unexpected field in a fielder",
      (s) =>
        withEvent(
          s.events,
          1,
          (e) => (e.wickets = [{ ...caughtBy(s), fielders: [{ participantId: s.fielder(1), note: "x" }] }]),
        ),
      [invalid("wickets.0.fielders.0.note", 1)],
    ],
    [
      "a malformed ball number (once, not twice)",
      (s) => withEvent(s.events, 1, (e) => (e.ballNumber = "x.2")),
      [invalid("ballNumber", 1)],
    ],
    [
      "a ball number in another over",
      (s) => withEvent(s.events, 1, (e) => (e.ballNumber = "3.2")),
      [invalid("ballNumber", 1)],
    ],
    ["a malformed event id", (s) => withEvent(s.events, 3, (e) => (e.eventId = "not-a-uuid")), [invalid("eventId", 3)]],
    [
      "runs.total that does not add up",
      (s) => withEvent(s.events, 1, (e) => (e.runs = { offBat: 1, extras: 0, total: 2 })),
      [invalid("runs.total", 1)],
    ],
    [
      "runs.extras that is not the sum of extras",
      (s) =>
        withEvent(s.events, 1, (e) => {
          e.runs = { offBat: 0, extras: 1, total: 1 };
          e.extras = { byes: 2 };
        }),
      [invalid("runs.extras", 1)],
    ],
    [
      "runs.extras without any extras",
      (s) => withEvent(s.events, 1, (e) => (e.runs = { offBat: 0, extras: 1, total: 1 })),
      [invalid("runs.extras", 1)],
    ],
    [
      "the striker as non-striker",
      (s) => withEvent(s.events, 2, (e) => (e.nonStrikerId = e.strikerId)),
      [invalid("nonStrikerId", 2)],
    ],
    [
      "three wickets",
      (s) => withEvent(s.events, 1, (e) => (e.wickets = [caughtBy(s), caughtBy(s), caughtBy(s)])),
      [invalid("wickets", 1)],
    ],
    [
      "a sequence number that does not ascend",
      (s) => withEvent(s.events, 2, (e) => (e.sequenceNumber = 2)),
      [invalid("sequenceNumber", 2)],
    ],
    [
      "a position that does not ascend",
      (s) => withEvent(s.events, 2, (e) => (e.positionInOver = 1)),
      [invalid("positionInOver", 2)],
    ],
    [
      "an over that goes back",
      (s) =>
        s.events
          .slice(0, 2)
          .concat(validEvents(s.fixture, 8).slice(6, 8))
          .map((e, i) => (i === 3 ? { ...e, overNumber: 0, positionInOver: 5, ballNumber: "0.6" } : e)),
      [invalid("overNumber", 3)],
    ],
    [
      "an unknown innings",
      (s) => withEvent(s.events, 1, (e) => (e.inningsId = "no-such-innings")),
      [{ code: "INVALID_INNINGS", field: "inningsId", eventIndex: 1 }],
    ],
    [
      "a striker from the fielding side",
      (s) => withEvent(s.events, 1, (e) => (e.strikerId = s.fielder(0))),
      [participant("strikerId", 1)],
    ],
    [
      "a non-striker from the fielding side",
      (s) => withEvent(s.events, 1, (e) => (e.nonStrikerId = s.fielder(0))),
      [participant("nonStrikerId", 1)],
    ],
    [
      "a bowler from the batting side",
      (s) => withEvent(s.events, 1, (e) => (e.bowlerId = s.batter(5))),
      [participant("bowlerId", 1)],
    ],
    [
      "a dismissed fielder",
      (s) => withEvent(s.events, 1, (e) => (e.wickets = [{ ...caughtBy(s), playerOutId: s.fielder(4) }])),
      [participant("wickets.0.playerOutId", 1)],
    ],
    [
      "a fielder from the batting side",
      (s) =>
        withEvent(s.events, 1, (e) => (e.wickets = [{ ...caughtBy(s), fielders: [{ participantId: s.batter(4) }] }])),
      [participant("wickets.0.fielders.0.participantId", 1)],
    ],
    [
      "a registered non-substitute fielder outside the squad",
      (s) =>
        withEvent(s.events, 1, (e) => (e.wickets = [{ ...caughtBy(s), fielders: [{ participantId: substitute.id }] }])),
      [participant("wickets.0.fielders.0.participantId", 1)],
    ],
    [
      "an unknown substitute",
      (s) =>
        withEvent(
          s.events,
          1,
          (e) =>
            (e.wickets = [
              {
                ...caughtBy(s),
                fielders: [{ participantId: s.fielder(1) }, { participantId: "ghost", substitute: true }],
              },
            ]),
        ),
      [participant("wickets.0.fielders.1.participantId", 1)],
    ],
    [
      "a dismissal kind outside the vocabulary (exact match)",
      (s) => withEvent(s.events, 1, (e) => (e.wickets = [{ ...caughtBy(s), kind: "Caught" }])),
      [{ code: "UNKNOWN_DISMISSAL_KIND", field: "wickets.0.kind", eventIndex: 1 }],
    ],
    [
      "an event id repeated, case aside (the later one)",
      (s) => withEvent(s.events, 3, (e) => (e.eventId = (s.events[1] as SubmittedEvent).eventId.toUpperCase())),
      [{ code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 3 }],
    ],
    // The event itself is the failing value: its path within itself is empty.
    ["an event that is not an object", (s) => s.events.map((e, i) => (i === 1 ? 42 : e)), [invalid("", 1)]],
  ];

  it.each(cases)("%s", (_name, events, expected) => {
    const s = scene();
    expect(problems(submission(s.fixture, events(s)), s.facts)).toEqual(sortedAs(expected));
  });

  it("names the problem of a substitute nobody registered", () => {
    const s = scene(2);
    const body = submission(
      s.fixture,
      withEvent(
        s.events,
        1,
        (e) => (e.wickets = [{ ...caughtBy(s), fielders: [{ participantId: "ghost", substitute: true }] }]),
      ),
    );
    const checked = checkSubmission(body, s.facts);
    expect(checked.ok ? [] : checked.details).toEqual([
      {
        code: "INVALID_PARTICIPANT",
        message: "No such participant",
        field: "wickets.0.fielders.0.participantId",
        eventIndex: 1,
      },
    ]);
  });

  it("reports an event id the ledger already holds, in this fixture or any other", () => {
    const s = scene(3);
    const [a, b] = [(s.events[0] as SubmittedEvent).eventId, (s.events[2] as SubmittedEvent).eventId];
    const recorded = anOpenFixture().withInnings();
    const held = recorded.deliveries[0]?.eventId as string;
    const facts = {
      ...factsFor(recorded), // the fixture holds `held`
      accepted: new Set([a, b]), // accepted anywhere, as the read model says
    };
    const ids = [a, held, b.toUpperCase()];
    const after = { ordinal: 2, from: recorded.deliveries.length + 1 }; // places nobody holds
    const events = validEvents(recorded, 3, after).map((e, i) => ({ ...e, eventId: ids[i] as string }));
    expect(problems(submission(recorded, events), facts)).toEqual(
      [0, 1, 2].map((eventIndex) => ({ code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex })),
    );
  });
});

describe("checkSubmission: the submission as a whole", () => {
  it("reports schemaVersion 1.1, a missing fixtureId and an unexpected field at the top, without eventIndex", () => {
    const s = scene(2);
    const { fixtureId: _f, ...body } = { ...submission(s.fixture, s.events), schemaVersion: "1.1", comment: "hi" };
    expect(problems(body, s.facts)).toEqual(
      sortedAs([invalid("schemaVersion"), invalid("fixtureId"), invalid("comment")]),
    );
  });

  it("reports empty events, and events that are not an array", () => {
    const s = scene(1);
    expect(problems(submission(s.fixture, []), s.facts)).toEqual(sortedAs([invalid("events")]));
    expect(problems({ ...submission(s.fixture, []), events: "many" }, s.facts)).toEqual(sortedAs([invalid("events")]));
  });

  it("reports only the count of 1,001 events, not the events themselves", () => {
    const s = scene(1);
    const events = validEvents(s.fixture, 1001).map((e) => ({ ...e, strikerId: 7 }));
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(sortedAs([invalid("events")]));
  });

  it("accepts exactly 1,000 events", () => {
    const s = scene(1, "Test");
    const checked = checkSubmission(submission(s.fixture, validEvents(s.fixture, 1000)), s.facts);
    expect(checked.ok && checked.value.events.length).toBe(1000);
  });

  it("reports a body that is not an object on `body`", () => {
    const s = scene(1);
    for (const body of [null, [], "text", 3]) expect(problems(body, s.facts)).toEqual(sortedAs([invalid("body")]));
  });

  it("reports a blank fixtureId once, as invalid, not also as a fixture that does not exist", () => {
    const s = scene(1);
    expect(problems({ ...submission(s.fixture, s.events), fixtureId: "   " }, { ...s.facts, fixture: null })).toEqual([
      { code: "INVALID_FIELD", field: "fixtureId" },
    ]);
  });

  it("reports a fixture that does not exist, and still checks the events' structure and ids", () => {
    const s = scene(3);
    const events = withEvent(s.events, 2, (e) => {
      e.runs = { offBat: 1, extras: 0, total: 5 };
      e.bowlerId = s.batter(0); // referential: not judged without the fixture
    });
    for (const fixture of [null, initialFixtureState()]) {
      const facts = { ...s.facts, fixture, accepted: new Set([(s.events[0] as SubmittedEvent).eventId]) };
      expect(problems(submission(s.fixture, events), facts)).toEqual(
        sortedAs([
          { code: "FIXTURE_NOT_FOUND", field: "fixtureId" },
          { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 0 },
          invalid("runs.total", 2),
        ]),
      );
    }
  });

  it("reports an innings of another fixture as INVALID_INNINGS", () => {
    const s = scene(2);
    const other = anOpenFixture();
    const events = withEvent(s.events, 1, (e) => (e.inningsId = other.innings[0]?.inningsId));
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(
      sortedAs([{ code: "INVALID_INNINGS", field: "inningsId", eventIndex: 1 }]),
    );
  });

  it("judges players of an unknown innings against either squad, and reports strangers", () => {
    const s = scene(2);
    const events = withEvent(s.events, 1, (e) => {
      e.inningsId = "no-such-innings";
      e.strikerId = s.fielder(0); // in a squad: the innings is the problem
      e.bowlerId = "stranger";
    });
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(
      sortedAs([{ code: "INVALID_INNINGS", field: "inningsId", eventIndex: 1 }, participant("bowlerId", 1)]),
    );
  });

  it("checks players against the innings' own sides: the second innings swaps them", () => {
    const s = scene(1);
    const [second] = validEvents(s.fixture, 1, { ordinal: 1 }) as [SubmittedEvent];
    const swapped = { ...second, strikerId: s.batter(0), nonStrikerId: s.batter(1), bowlerId: s.fielder(7) };
    expect(problems(submission(s.fixture, [swapped]), s.facts)).toEqual(
      sortedAs([participant("strikerId", 0), participant("nonStrikerId", 0), participant("bowlerId", 0)]),
    );
  });
});

describe("checkSubmission: every problem in one pass", () => {
  it("reports a structurally broken event's referential and cross-field problems too", () => {
    const s = scene(3);
    const events = withEvent(s.events, 1, (e) => {
      e.overNumber = "zero"; // mistyped: zod would skip the object's refinements after this
      e.strikerId = 17; // mistyped
      e.nonStrikerId = s.fielder(2); // not in the batting squad
      e.bowlerId = s.batter(3); // not in the fielding squad
      e.runs = { offBat: 1, extras: 0, total: 3 };
      e.extras = { byes: 2 }; // runs.extras 0 ≠ 2
      e.wickets = [{ kind: "hit wicket twice", playerOutId: s.fielder(1), fielders: [{ participantId: "ghost" }] }];
      e.surprise = true;
    });
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(
      sortedAs([
        invalid("overNumber", 1),
        invalid("strikerId", 1),
        invalid("surprise", 1),
        invalid("runs.total", 1),
        invalid("runs.extras", 1),
        participant("nonStrikerId", 1),
        participant("bowlerId", 1),
        participant("wickets.0.playerOutId", 1),
        { code: "UNKNOWN_DISMISSAL_KIND", field: "wickets.0.kind", eventIndex: 1 },
        participant("wickets.0.fielders.0.participantId", 1),
      ]),
    );
  });

  it("reports a ball number's over and the batters' sameness beside a mistyped field", () => {
    const s = scene(2);
    const events = withEvent(s.events, 1, (e) => {
      e.bowlerId = 9;
      e.ballNumber = "4.1";
      e.nonStrikerId = e.strikerId;
    });
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(
      sortedAs([invalid("bowlerId", 1), invalid("ballNumber", 1), invalid("nonStrikerId", 1)]),
    );
  });

  it("orders the details by eventIndex, the top-level ones first", () => {
    const s = scene(6);
    const events = s.events.map((e, i) => {
      if (i === 4) return { ...e, strikerId: s.fielder(0) };
      if (i === 1) return { ...e, runs: { offBat: 1, extras: 0, total: 9 } };
      if (i === 5) return { ...e, sequenceNumber: 1, eventId: (s.events[0] as SubmittedEvent).eventId };
      return e;
    });
    const body = { ...submission(s.fixture, events), schemaVersion: "2.0" };
    const found = problems(body, { ...s.facts, accepted: new Set([(s.events[3] as SubmittedEvent).eventId]) });
    expect(found).toEqual([
      invalid("schemaVersion"),
      invalid("runs.total", 1),
      { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 3 },
      participant("strikerId", 4),
      { code: "DUPLICATE_EVENT_ID", field: "eventId", eventIndex: 5 },
      invalid("sequenceNumber", 5),
    ]);
  });

  it("reports faults spread through 1,000 events, each at its own index", () => {
    const s = scene(1, "Test");
    const events: unknown[] = validEvents(s.fixture, 1000);
    const expected: Where[] = [];
    for (let i = 5; i < 1000; i += 100) {
      events[i] = { ...(events[i] as SubmittedEvent), bowlerId: s.batter(0) };
      expected.push(participant("bowlerId", i));
      events[i + 1] = { ...(events[i + 1] as SubmittedEvent), runs: { offBat: 0, extras: 0, total: 1 } };
      expected.push(invalid("runs.total", i + 1));
    }
    expect(problems(submission(s.fixture, events), s.facts)).toEqual(expected);
  });
});

describe("checkCorrection", () => {
  /** A correction of the first delivery of a fixture with one innings played. */
  function correctionScene() {
    const fixture = anOpenFixture({ innings: 0 }).withInnings({ deliveries: 6 });
    const innings = fixture.innings[0] as FixtureBuilder["innings"][0];
    const { state } = fixture.deliveries[0] as FixtureBuilder["deliveries"][0];
    const body = {
      fixtureId: fixture.id,
      schemaVersion: "1.0",
      reason: "four, not one",
      event: { ...state, ballNumber: state.ballNumber ?? undefined, runs: { offBat: 4, extras: 0, total: 4 } },
    };
    return { fixture, innings, body, facts: factsFor(fixture) };
  }
  /** The problems found, sorted; a correction names no event index. */
  const found = (body: unknown, owner: string, facts: LedgerFacts) => {
    const checked = checkCorrection(body, owner, facts);
    if (checked.ok) return [];
    expect(checked.details.filter((d) => d.eventIndex !== undefined)).toEqual([]);
    return sortedAs(checked.details.map(({ code, field }) => ({ code, field })));
  };

  it("accepts a valid replacement", () => {
    const { fixture, body, facts } = correctionScene();
    const checked = checkCorrection(body, fixture.id, facts);
    expect(checked.ok && checked.value.event.runs).toEqual({ offBat: 4, extras: 0, total: 4 });
  });

  it("accepts the owner's fixture id with surrounding spaces", () => {
    const { fixture, body, facts } = correctionScene();
    expect(found({ ...body, fixtureId: ` ${fixture.id} ` }, fixture.id, facts)).toEqual([]);
  });

  it("reports another fixture's id on fixtureId", () => {
    const { fixture, body, facts } = correctionScene();
    expect(found({ ...body, fixtureId: "some-other-fixture" }, fixture.id, facts)).toEqual([
      { code: "INVALID_FIELD", field: "fixtureId" },
    ]);
  });

  it("names problems inside the replacement with an `event.` prefix and no eventIndex", () => {
    const { fixture, innings, body, facts } = correctionScene();
    const event = {
      ...body.event,
      sequenceNumber: 3, // inherited, cannot be set
      strikerId: innings.bowling.players[0]?.id,
      bowlerId: innings.batting.players[9]?.id,
      runs: { offBat: 4, extras: 0, total: 5 },
      wickets: [{ kind: "defenestrated", playerOutId: innings.batting.players[0]?.id, fielders: [] }],
    };
    expect(found({ ...body, reason: "  ", event }, fixture.id, facts)).toEqual(
      sortedAs([
        { code: "INVALID_FIELD", field: "reason" },
        { code: "INVALID_FIELD", field: "event.sequenceNumber" },
        { code: "INVALID_FIELD", field: "event.runs.total" },
        { code: "INVALID_PARTICIPANT", field: "event.strikerId" },
        { code: "INVALID_PARTICIPANT", field: "event.bowlerId" },
        { code: "UNKNOWN_DISMISSAL_KIND", field: "event.wickets.0.kind" },
      ]),
    );
  });

  it("reports an innings outside the fixture on event.inningsId", () => {
    const { fixture, body, facts } = correctionScene();
    const other = anOpenFixture();
    expect(
      found({ ...body, event: { ...body.event, inningsId: other.innings[1]?.inningsId } }, fixture.id, facts),
    ).toEqual([{ code: "INVALID_INNINGS", field: "event.inningsId" }]);
  });

  it("reports a missing event and schemaVersion 1.1", () => {
    const { fixture, body, facts } = correctionScene();
    const { event: _e, ...rest } = body;
    expect(found({ ...rest, schemaVersion: "1.1" }, fixture.id, facts)).toEqual(
      sortedAs([
        { code: "INVALID_FIELD", field: "schemaVersion" },
        { code: "INVALID_FIELD", field: "event" },
      ]),
    );
  });
});

function caughtBy(s: ReturnType<typeof scene>) {
  return { kind: "caught", playerOutId: s.batter(0), fielders: [{ participantId: s.fielder(1), substitute: false }] };
}
