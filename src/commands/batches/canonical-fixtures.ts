import type { Account } from "../../../streams/account-state.js";
import { batchCatalogue, batchStream } from "../../../streams/batch.js";
import {
  type FixtureEvent,
  FixtureScheduled,
  fixtureCatalogue,
  fixtureStream,
  InningsOpened,
  OutcomeRecorded,
  SquadNamed,
} from "../../../streams/fixture.js";
import { evolveFixture, type FixtureState, initialFixtureState } from "../../../streams/fixture-state.js";
import { mayAdminister } from "../../batches/access.js";
import { type CanonicalFixture, canonicalFixture } from "../../batches/canonical-fixture.js";
import { canonicalFacts } from "../../batches/facts.js";
import { batchPackage, type Locate } from "../../batches/package-files.js";
import type { Sql } from "../../db/database.js";
import type { EventStore } from "../../event-store/port.js";
import { DomainError } from "../errors.js";
import { type CommandContext, type Decider, type HandleResult, handleCommand, loadStream } from "../handle.js";
import { handleOnFixture } from "../submissions/handlers.js";
import { openRequirements, placeKey } from "./amendments.js";
import { batchDecider } from "./decide.js";
import { BatchRequestInvalid } from "./errors.js";
import { loadBatch } from "./handlers.js";
import { stagedOrRefused } from "./resolution.js";

/**
 * Canonical fixtures from a staged 1.1 batch (docs/batches.md, "Canonical fixtures"): an
 * administrator makes the fixture a package's fixture names when the competition has none
 * by its source id, from its proposal and with what already exists; then the batch records
 * it (the reference now names it) and is validated again. Nothing is published. Two steps,
 * so the fixture's read models can show it before the batch is judged again with it.
 */

type Deps = { store: EventStore; sql: Sql };

/** 409: the fixture the source id names exists already, in another competition. */
export class CanonicalFixtureTaken extends DomainError {
  readonly code = "EVENT_CONFLICT";
}

/**
 * Requirements: a fixture made for the first time is written whole (schedule, squads,
 * innings, outcome) in one append; the same fixture again (a retry) is nothing; a fixture of
 * that id in another competition is 409.
 */
export const createFixture: Decider<CanonicalFixture, FixtureState, FixtureEvent> = {
  initialState: initialFixtureState,
  evolve: evolveFixture,
  decide: (fixture, state) => {
    if (state.scheduled) {
      if (state.scheduled.competitionId !== fixture.scheduled.competitionId)
        throw new CanonicalFixtureTaken("A fixture of this source id exists in another competition");
      return [];
    }
    return [
      { type: FixtureScheduled.type, data: fixture.scheduled },
      ...fixture.squads.map((data) => ({ type: SquadNamed.type, data })),
      ...fixture.innings.map((data) => ({ type: InningsOpened.type, data })),
      { type: OutcomeRecorded.type, data: fixture.outcome },
    ];
  },
};

/** The request: where the report shows the fixture's reference (`fixtures.N`, and its file of several). */
export type CanonicalFixtureRequest = { referencePath: string; file?: string | undefined };

/** Makes the fixture; the batch is not told yet (`recordCanonicalFixture`). */
export async function makeCanonicalFixture(
  deps: Deps,
  { batchReference, account, request }: { batchReference: string; account: Account; request: CanonicalFixtureRequest },
  context: CommandContext,
): Promise<{ fixtureId: string; referencePath: string; result: HandleResult }> {
  const { history, state } = await loadBatch(deps.store, batchReference);
  mayAdminister(account, state, "Only an administrator makes canonical fixtures");
  stagedOrRefused(state);
  const { read, locate } = await batchPackage(history, state);
  const refuse = (code: string, message: string): never => {
    throw new BatchRequestInvalid(message, [{ code, message, field: "referencePath" }]);
  };
  const notFound = () =>
    refuse("REQUIREMENT_NOT_FOUND", `The batch has no fixture to resolve at ${request.referencePath}`);
  const index = read.fixtures.findIndex(
    (f) => placeKey(locateReference(locate, `fixtures.${f.index}`)) === placeKey(request),
  );
  if (index < 0) return notFound();
  const open = (await openRequirements(deps, read, locate, state.competitionId)).get(placeKey(request));
  if (open?.code === "AMBIGUOUS_REFERENCE")
    return refuse("REFERENCE_AMBIGUOUS", "Fixtures of the competition match it: map it to one of its candidates");
  const made = canonicalFixture(
    read,
    index,
    state.competitionId,
    await canonicalFacts(deps.sql, read, index, state.competitionId),
  );
  if ("problems" in made)
    throw new BatchRequestInvalid(
      "The package's fixture cannot be made a canonical fixture; nothing was recorded",
      made.problems.map((p) => {
        const { path, file } = locate(p.field);
        return { ...p, field: path, message: file === undefined ? p.message : `${file}: ${p.message}` };
      }),
    );
  // Resolved already: only by the fixture an earlier request made, before the batch was told of it.
  if (!open && !(await isScheduled(deps.store, made.fixture.fixtureId))) return notFound();
  const result = await handleOnFixture(deps.store, made.fixture.fixtureId, createFixture, made.fixture, context);
  return { fixtureId: made.fixture.fixtureId, referencePath: `fixtures.${index}`, result };
}

const locateReference = (locate: Locate, path: string) => {
  const { path: referencePath, file } = locate(path);
  return { referencePath, file };
};

async function isScheduled(store: EventStore, fixtureId: string) {
  const { state } = await loadStream(store, fixtureCatalogue, fixtureStream(fixtureId), createFixture);
  return state.scheduled !== null;
}

/** The batch's record of the fixture made for its reference: validated again with it. */
export function recordCanonicalFixture(
  { store }: Deps,
  {
    batchReference,
    account,
    fixtureId,
    referencePath,
  }: { batchReference: string; account: Account; fixtureId: string; referencePath: string },
  context: CommandContext,
): Promise<HandleResult> {
  const command = {
    type: "RecordCanonicalFixture" as const,
    referencePath,
    fixtureId,
    createdByAccountId: account.accountId,
    createdAt: context.now.toISOString(),
  };
  return handleCommand(store, batchCatalogue, batchStream(batchReference), batchDecider, command, context);
}
