import { expect } from "vitest";
import type { DecidedEvent, Decider } from "../../src/commands/handle.js";

/** given(events).when(command).thenEmits(events) — or .thenThrows(ErrorClass) — for a pure decider. */
export function spec<Command, State>(decider: Decider<Command, State>) {
  return {
    given: (history: DecidedEvent[]) => ({
      when: (command: Command) => {
        const decide = () => decider.decide(command, history.reduce(decider.evolve, decider.initialState()));
        return {
          thenEmits: (expected: DecidedEvent[]) => expect(decide()).toEqual(expected),
          thenThrows: (error: new (...args: never[]) => Error) => expect(decide).toThrow(error),
        };
      },
    }),
  };
}
