import type { Account } from "../../../streams/account-state.js";
import { BatchPublished, batchCatalogue, batchStream, type Review } from "../../../streams/batch.js";
import type { Batch } from "../../../streams/batch-state.js";
import { type FixtureEvent, recordingId } from "../../../streams/fixture.js";
import type { FixtureState } from "../../../streams/fixture-state.js";
import type { EventData } from "../../../streams/types.js";
import { mayReview } from "../../batches/access.js";
import { batchFacts } from "../../batches/facts.js";
import { type JudgedItem, judgeBatch } from "../../batches/judge.js";
import { batchPackage } from "../../batches/package-files.js";
import type { Sql } from "../../db/database.js";
import { DuplicateEventId, type EventStore, type RecordedEvent } from "../../event-store/port.js";
import { MAX_EVENTS } from "../../submissions/schema.js";
import { type RefreshScope, refreshedScopes } from "../../submissions/scopes.js";
import { type CommandContext, type Decider, type HandleResult, handleCommand } from "../handle.js";
import { handleOnFixture } from "../submissions/handlers.js";
import { batchDecider } from "./decide.js";
import { loadBatch } from "./handlers.js";
import {
  type ApprovedItem,
  type PublicationPlan,
  type PublishItems,
  planPublication,
  publicationEvents,
  publishItems,
} from "./publish.js";
import { approvals, type ReviewItems } from "./review.js";

/**
 * Review and publication of a batch (docs/batches.md, "Review" and "Publication"): who may,
 * and the commands on the batch's and the fixtures' streams.
 */

type Deps = { store: EventStore; sql: Sql };

/** Records a reviewer's decision on items of the batch, or on all its accepted items. */
export function reviewBatch(
  { store }: Deps,
  batchReference: string,
  decision: Omit<ReviewItems, "type" | "reviewedAt">,
  context: CommandContext,
): Promise<HandleResult> {
  const command: ReviewItems = { type: "ReviewItems", ...decision, reviewedAt: context.now.toISOString() };
  return handleCommand(store, batchCatalogue, batchStream(batchReference), batchDecider, command, context);
}

export type PublicationOutcome = HandleResult & {
  publication: EventData<typeof BatchPublished>;
  /** The scopes whose statistics this request changed: none for a retry of a publication that stood. */
  refreshedScopes: RefreshScope[];
};

type Published = EventData<typeof BatchPublished>["published"];
type Refused = EventData<typeof BatchPublished>["refused"];

/**
 * Publishes a reviewed batch: its package judged again against the ledger as it is now,
 * each fixture's approved items appended to its stream (at most 1,000 at a time), then the
 * batch's record of what became of them. A retry, after a failure anywhere in between or
 * after it all stood, publishes nothing twice and answers what was published.
 */
export async function publishBatch(
  deps: Deps,
  { batchReference, publisher }: { batchReference: string; publisher: Account },
  context: CommandContext,
): Promise<PublicationOutcome> {
  const { stream, history, state } = await loadBatch(deps.store, batchReference);
  mayReview(publisher, state);
  const done = history.find((e) => e.type === BatchPublished.type);
  if (done) {
    const publication = BatchPublished.schema.parse(done.data);
    return { nextRevision: history.length - 1, position: done.position, events: [], publication, refreshedScopes: [] };
  }
  const approved = approvals(state, publisher.accountId);
  const again = await judgedAgain(deps, history, state);

  const { byFixture, refused } = groupByFixture(approved, again);
  const published: Published = [];
  const scopes = new Map<string, RefreshScope>();
  const appended: HandleResult[] = [];
  for (const [fixtureId, group] of byFixture)
    for (let from = 0; from < group.length; from += MAX_EVENTS) {
      const items = group.slice(from, from + MAX_EVENTS);
      const { result, plan, fixture } = await publishTo(
        deps.store,
        { fixtureId, batchReference, items, facts: again.facts },
        context,
      );
      appended.push(result);
      published.push(
        ...[...plan.published, ...plan.already].map(({ ordinal, eventId, revision }) => ({
          ordinal,
          fixtureId,
          eventId,
          revision,
        })),
      );
      refused.push(...plan.refused);
      for (const p of plan.published)
        for (const scope of refreshedScopes(fixtureId, fixture, p.states)) scopes.set(scope.path, scope);
    }
  const byOrdinal = (a: { ordinal: number }, b: { ordinal: number }) => a.ordinal - b.ordinal;
  const command = {
    type: "RecordPublication" as const,
    publisherAccountId: publisher.accountId,
    published: published.sort(byOrdinal),
    refused: refused.sort(byOrdinal),
  };
  const recorded = await handleCommand(deps.store, batchCatalogue, stream, batchDecider, command, context);
  // A racing publication recorded first: what it recorded stands, and this one changed nothing more.
  const [record] =
    recorded.events.length > 0
      ? recorded.events
      : (await deps.store.readStream(stream)).filter((e) => e.type === BatchPublished.type);
  const publication = BatchPublished.schema.parse(record?.data);
  const events = [...appended, recorded].flatMap((r) => r.events);
  return { ...recorded, events, publication, refreshedScopes: [...scopes.values()] };
}

/**
 * The approved items by the fixture they go to; an item that no longer resolves to a
 * delivery (a reference or the fixture it named changed) is refused with what it now breaks.
 */
function groupByFixture(approved: Map<number, Review>, again: Awaited<ReturnType<typeof judgedAgain>>) {
  const byFixture = new Map<string, ApprovedItem[]>();
  const refused: Refused = [];
  for (const [ordinal, review] of approved) {
    const item = again.resolved.get(ordinal);
    if (!item) {
      refused.push({ ordinal, ...stillWrong(again.items[ordinal]) });
      continue;
    }
    const { fixtureId, ...resolved } = item;
    byFixture.set(fixtureId, [...(byFixture.get(fixtureId) ?? []), { ordinal, review, ...resolved }]);
  }
  return { byFixture, refused };
}

/**
 * The package judged again against the ledger as it is now (the fixtures' streams, read
 * once), so publication sees what changed since validation.
 */
async function judgedAgain(deps: Deps, history: RecordedEvent[], batch: Batch) {
  const { read } = await batchPackage(history, batch);
  const facts = await batchFacts(deps, read, batch.competitionId);
  return { ...judgeBatch(read, facts), facts: facts.reference };
}

/** Why an approved item no longer resolves to a delivery: the first rule it now breaks. */
function stillWrong(item: JudgedItem | undefined): { code: string; message: string } {
  const [fault] = item?.faults ?? [];
  if (fault) return { code: fault.code, message: fault.message };
  const [requirement] = item?.requirements ?? [];
  if (requirement) return { code: requirement.code, message: "A reference of the item no longer resolves" };
  return { code: "ITEM_UNREADABLE", message: "The item can no longer be read as a delivery" };
}

/**
 * Publishes items into one fixture, keeping the plan of the decision that stood (a racing
 * change decides again) and the fixture state it was taken on, for the scopes it touched.
 * A new delivery another fixture recorded after the facts were read is refused as a
 * duplicate, and the rest decided again.
 */
async function publishTo(
  store: EventStore,
  command: PublishItems,
  context: CommandContext,
): Promise<{ result: HandleResult; plan: PublicationPlan; fixture: FixtureState }> {
  let decided: { plan: PublicationPlan; fixture: FixtureState } | undefined;
  const decider: Decider<PublishItems, FixtureState, FixtureEvent> = {
    ...publishItems,
    decide: (cmd, fixture) => {
      const plan = planPublication(cmd, fixture);
      decided = { plan, fixture };
      return publicationEvents(cmd, plan);
    },
  };
  try {
    const result = await handleOnFixture(store, command.fixtureId, decider, command, context);
    const { plan, fixture } = decided as NonNullable<typeof decided>;
    return { result, plan, fixture };
  } catch (error) {
    if (!(error instanceof DuplicateEventId)) throw error;
    const stored = new Set(error.eventIds);
    const taken = command.items.filter((i) => !i.correctsEventId && stored.has(recordingId(i.event.eventId)));
    if (taken.length === 0) throw error;
    const accepted = new Set([...command.facts.accepted, ...taken.map((i) => i.event.eventId)]);
    return publishTo(store, { ...command, facts: { ...command.facts, accepted } }, context);
  }
}
