import { randomUUID } from "node:crypto";
import type { NewEvent } from "../../src/event-store/port.js";

/** A new event with fresh ids and plausible metadata; override what a test cares about. */
export function anEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    id: randomUUID(),
    type: "SomethingHappened",
    data: { value: 1 },
    metadata: { actor: "test", occurredAt: new Date().toISOString(), schemaVersion: 1 },
    ...overrides,
  };
}

export const events = (count: number, data: (i: number) => unknown = (i) => ({ i })): NewEvent[] =>
  Array.from({ length: count }, (_, i) => anEvent({ data: data(i) }));

/** A stream id unique to this test run, so suites can share a server. */
export const uniqueStream = (category = "test") => `${category}-${randomUUID()}`;
