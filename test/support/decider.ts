import { expect } from "vitest";
import type { DecidedEvent, Decider } from "../../src/commands/handle.js";
import type { UntypedEvent } from "../../streams/catalogue.js";

/** given(events).when(command).thenEmits(events) — or .thenThrows(ErrorClass) — for a pure decider. */
export function spec<Command, State, Event extends UntypedEvent>(decider: Decider<Command, State, Event>) {
  return {
    given: (history: readonly Event[]) => ({
      when: (command: Command) => {
        const decide = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
        return {
          thenEmits: (expected: readonly DecidedEvent[]) => expect(decide()).toEqual(expected),
          thenThrows: (error: new (...args: never[]) => Error) => expect(decide).toThrow(error),
        };
      },
    }),
  };
}
