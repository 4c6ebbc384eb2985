import { BatchItemsJudged, batchCatalogue, batchStream } from "../../streams/batch.js";
import { type BatchCommand, batchDecider } from "../commands/batches/decide.js";
import { handleCommand, loadStream } from "../commands/handle.js";
import type { Sql } from "../db/database.js";
import type { EventStore } from "../event-store/port.js";
import type { Logger } from "../http/logging.js";
import type { Fault, ReadPackage } from "../ingest/batches/package.js";
import { ReactorLoop } from "../projections/reactor.js";
import { batchFacts } from "./facts.js";
import { type JudgedItem, type Judgement, judgeBatch } from "./judge.js";
import { batchPackage, type Locate } from "./package-files.js";

/**
 * Validates received batches: a reactor on the log. Its work list is the batches the
 * `batches` read model shows received or validating; its checkpoint is each batch's own
 * stream, which says how far validation got (started, items judged so far, finished). So it
 * resumes where a restart stopped it, and two processes validating one batch append one
 * outcome between them: each step goes through the batch decider, which takes a step already
 * taken as nothing (docs/batches.md, "Validation").
 */

/** Items per `BatchItemsJudged`: progress shows in steps of this many. */
const ITEMS_PER_STEP = 250;
const SYSTEM = "batch-validator";

export class BatchValidator {
  private readonly reactor: ReactorLoop;

  constructor(
    private readonly deps: { sql: Sql; store: EventStore; logger: Logger },
    options: { idlePollMs?: number } = {},
  ) {
    this.reactor = new ReactorLoop(
      () => this.drain(),
      (err) => deps.logger.error({ err }, "batch validation failed; retrying"),
      options.idlePollMs ?? 500,
    );
  }

  /** Validates in the background until stopped, woken whenever `projections` make progress. */
  start(projections: { onProgress(listener: () => void): () => void }): void {
    this.reactor.start(projections);
  }

  stop(): Promise<void> {
    return this.reactor.stop();
  }

  /** Validates every batch waiting now, oldest first; returns how many it finished. */
  async drain(): Promise<number> {
    const waiting = await this.deps.sql<{ batch_reference: string }[]>`
      select batch_reference::text from batch where status in ('received', 'validating')
      order by received_at, batch_reference`;
    let finished = 0;
    for (const { batch_reference } of waiting) {
      if (this.reactor.stopping) break;
      // One batch that cannot be validated must not hold up the ones after it.
      try {
        if (await this.validate(batch_reference)) finished++;
      } catch (err) {
        this.deps.logger.error({ err, batchReference: batch_reference }, "batch validation failed; retried later");
      }
    }
    return finished;
  }

  /** Takes a batch's validation from where its stream says it is to its end; false when there was nothing to do. */
  async validate(batchReference: string): Promise<boolean> {
    const stream = batchStream(batchReference);
    const { history, state } = await loadStream(this.deps.store, batchCatalogue, stream, batchDecider);
    if (!state || state.validation?.completed) return false;
    const { read, locate } = await batchPackage(history, state);
    const judgement = located(judgeBatch(read, await batchFacts(this.deps, read, state.competitionId)), locate);
    const { round } = state;
    const step = (command: BatchCommand) =>
      handleCommand(this.deps.store, batchCatalogue, stream, batchDecider, command, { actor: SYSTEM, now: new Date() });

    // Items judged in this round before a restart keep the outcome they were given: the
    // batch's status and counts are those of the items as stored, not of this second look.
    const judgedBefore = history.flatMap((e) => {
      if (e.type !== BatchItemsJudged.type) return [];
      const judged = BatchItemsJudged.schema.parse(e.data);
      return (judged.round ?? 0) === round ? judged.items : [];
    });
    const items = [...judgedBefore, ...judgement.items.slice(judgedBefore.length)];
    await step({ type: "StartValidation", round, itemsTotal: items.length });
    for (let from = judgedBefore.length; from < items.length; from += ITEMS_PER_STEP)
      await step({ type: "JudgeItems", round, from, items: items.slice(from, from + ITEMS_PER_STEP) });
    await step({
      type: "CompleteValidation",
      round,
      status: statusOf(read, items),
      counts: countsOf(items),
      faults: judgement.faults,
    });
    return true;
  }
}

/**
 * Every path of a judgement named within the file it is in, and where a table holds it: an
 * item at its row, each fault at its row and column too (a table's own faults know theirs).
 */
function located({ items, faults, resolved }: Judgement, locate: Locate): Judgement {
  const fault = (f: Fault): Fault => {
    const place = locate(f.path);
    return { ...place, ...f, path: place.path };
  };
  return {
    items: items.map((item) => {
      const { column: _, ...place } = locate(item.path);
      return {
        ...item,
        ...place,
        faults: item.faults.map(fault),
        requirements: item.requirements.map((r) => {
          const { path, column } = locate(r.referencePath);
          return { ...r, referencePath: path, ...(column === undefined ? {} : { column }) };
        }),
      };
    }),
    faults: faults.map(fault),
    resolved,
  };
}

const countsOf = (items: readonly JudgedItem[]) => {
  const counts = { accepted: 0, rejected: 0, unresolved: 0, duplicate: 0, conflicting: 0 };
  for (const item of items) counts[item.outcome]++;
  return counts;
};

/**
 * `rejected` when nothing in the package can be published (no item, or none that is not
 * rejected); else `staged` while any reference is unresolved; else `validated`.
 */
function statusOf(read: ReadPackage, items: readonly JudgedItem[]) {
  if (read.contractVersion === undefined || items.every((i) => i.outcome === "rejected")) return "rejected" as const;
  if (items.some((i) => i.outcome === "unresolved")) return "staged" as const;
  return "validated" as const;
}
