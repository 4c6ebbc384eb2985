import { EventEmitter } from "node:events";
import {
  BatchItemsJudged,
  BatchReceived,
  batchCatalogue,
  batchStream,
  type ReceivedFile,
} from "../../streams/batch.js";
import { parseJson } from "../bounded-json.js";
import { type BatchCommand, batchDecider } from "../commands/batches/decide.js";
import { handleCommand, loadStream } from "../commands/handle.js";
import type { Sql } from "../db/database.js";
import type { EventStore } from "../event-store/port.js";
import type { Logger } from "../http/logging.js";
import { MANIFEST_NAME } from "../ingest/batches/manifest.js";
import { type Fault, type ReadPackage, readPackage } from "../ingest/batches/package.js";
import { signalOrTimeout } from "../projections/runner.js";
import { batchFacts } from "./facts.js";
import { type JudgedItem, type Judgement, judgeBatch } from "./judge.js";

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
  private readonly wake = new EventEmitter();
  private loop: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly deps: { sql: Sql; store: EventStore; logger: Logger },
    private readonly options: { idlePollMs?: number } = {},
  ) {}

  /**
   * Validates in the background until stopped: woken whenever `projections` make progress
   * (the work list is a read model, so a new batch is there to find only once it is
   * projected), else every idlePollMs.
   */
  start(projections: { onProgress(listener: () => void): () => void }): void {
    this.stopping = false;
    const unsubscribe = projections.onProgress(() => this.wake.emit("wake"));
    this.loop = (async () => {
      while (!this.stopping) {
        try {
          await this.drain();
        } catch (err) {
          this.deps.logger.error({ err }, "batch validation failed; retrying");
        }
        await signalOrTimeout(this.wake, "wake", this.options.idlePollMs ?? 500);
      }
      unsubscribe();
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.emit("wake");
    await this.loop;
  }

  /** Validates every batch waiting now, oldest first; returns how many it finished. */
  async drain(): Promise<number> {
    const waiting = await this.deps.sql<{ batch_reference: string }[]>`
      select batch_reference::text from batch where status in ('received', 'validating')
      order by received_at, batch_reference`;
    let finished = 0;
    for (const { batch_reference } of waiting) {
      if (this.stopping) break;
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
    const received = history.find((e) => e.type === BatchReceived.type);
    const { files } = BatchReceived.schema.parse(received?.data);
    const { body, locate } = packageIn(files);
    const read = readPackage(body);
    const judgement = located(judgeBatch(read, await batchFacts(this.deps, read, state.competitionId)), locate);
    const step = (command: BatchCommand) =>
      handleCommand(this.deps.store, batchCatalogue, stream, batchDecider, command, { actor: SYSTEM, now: new Date() });

    // Items judged before a restart keep the outcome they were given: the batch's status
    // and counts are those of the items as stored, not of this second look at them.
    const judgedBefore = history.flatMap((e) =>
      e.type === BatchItemsJudged.type ? BatchItemsJudged.schema.parse(e.data).items : [],
    );
    const items = [...judgedBefore, ...judgement.items.slice(judgedBefore.length)];
    await step({ type: "StartValidation", itemsTotal: items.length });
    for (let from = judgedBefore.length; from < items.length; from += ITEMS_PER_STEP)
      await step({ type: "JudgeItems", from, items: items.slice(from, from + ITEMS_PER_STEP) });
    await step({
      type: "CompleteValidation",
      status: statusOf(read, items),
      counts: countsOf(items),
      faults: judgement.faults,
    });
    return true;
  }
}

/**
 * The package a batch's files hold, and where a path of it lies in them: one JSON file as it
 * is; a manifest's files as one package whose fixtures are theirs in manifest order, each
 * path then named within its own file.
 */
function packageIn(files: readonly ReceivedFile[]): { body: unknown; locate: Locate } {
  const [first, ...parts] = files;
  if (first?.name !== MANIFEST_NAME || parts.length === 0) return { body: jsonOf(first), locate: (path) => ({ path }) };
  const { files: _, ...head } = jsonOf(first) as Record<string, unknown>;
  const origins: { file: string; index: number }[] = [];
  const fixtures = parts.flatMap((part) => {
    const listed = (jsonOf(part) as { fixtures?: unknown } | undefined)?.fixtures;
    const own = Array.isArray(listed) ? listed : [];
    for (let index = 0; index < own.length; index++) origins.push({ file: part.name, index });
    return own;
  });
  const locate: Locate = (path) => {
    const match = /^fixtures\.(\d+)(.*)$/.exec(path);
    const origin = match ? origins[Number(match[1])] : undefined;
    return origin ? { path: `fixtures.${origin.index}${match?.[2] ?? ""}`, file: origin.file } : { path };
  };
  return { body: { ...head, fixtures }, locate };
}

type Locate = (path: string) => { path: string; file?: string };

function jsonOf(file: ReceivedFile | undefined): unknown {
  if (file?.contentEncoding !== "utf8") return undefined;
  try {
    return parseJson(file.content);
  } catch {
    return undefined;
  }
}

/** Every path of a judgement named within the file it is in. */
function located({ items, faults }: Judgement, locate: Locate): Judgement {
  const fault = (f: Fault): Fault => ({ ...f, ...locate(f.path) });
  return {
    items: items.map((item) => {
      const { file } = locate(item.path);
      const within = (path: string) => locate(path).path;
      return {
        ...item,
        path: within(item.path),
        ...(file === undefined ? {} : { file }),
        faults: item.faults.map((f) => ({ ...f, path: within(f.path) })),
        requirements: item.requirements.map((r) => ({ ...r, referencePath: within(r.referencePath) })),
      };
    }),
    faults: faults.map(fault),
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
