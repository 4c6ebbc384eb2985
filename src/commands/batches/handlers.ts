import { type Account, mayWriteIn } from "../../../streams/account-state.js";
import { batchCatalogue, batchReferenceFor, batchStream } from "../../../streams/batch.js";
import { competitionCandidates } from "../../batches/queries.js";
import { candidatesFor } from "../../batches/references.js";
import type { Sql } from "../../db/database.js";
import type { EventStore } from "../../event-store/port.js";
import type { Intake } from "../../ingest/batches/intake.js";
import { type CommandContext, type HandleResult, handleCommand, loadStream } from "../handle.js";
import { batchDecider } from "./decide.js";
import { BatchForbidden, PackageUnreadable } from "./errors.js";

/** A batch's stream and what it says now; a reference no batch has is refused as one the caller cannot see. */
export async function loadBatch(store: EventStore, batchReference: string) {
  const stream = batchStream(batchReference);
  const { history, state } = await loadStream(store, batchCatalogue, stream, batchDecider);
  if (!state) throw new BatchForbidden("No batch of yours has this reference");
  return { stream, history, state };
}

/** A received batch: where its events landed (for read-your-writes), its reference and competition. */
export type BatchReceipt = HandleResult & { batchReference: string; competitionId: string };

/**
 * Receives a package: resolves the competition it names (who may send it depends on it),
 * refuses a sender outside that competition, and stores the package under the batch its
 * idempotency key names. A key already used returns that batch when the content is the same.
 */
export async function receiveBatch(
  deps: { store: EventStore; sql: Sql },
  { sender, idempotencyKey, intake }: { sender: Account; idempotencyKey: string; intake: Intake },
  context: Omit<CommandContext, "actor">,
): Promise<BatchReceipt> {
  const competitionId = await resolveCompetition(deps.sql, intake);
  if (!mayWriteIn(sender, competitionId))
    throw new BatchForbidden("The package's competition is outside your submitter scope");
  const batchReference = batchReferenceFor(sender.accountId, idempotencyKey);
  const { contractVersion, packageId } = intake.head;
  const result = await handleCommand(
    deps.store,
    batchCatalogue,
    batchStream(batchReference),
    batchDecider,
    {
      type: "ReceiveBatch",
      batchReference,
      ownerAccountId: sender.accountId,
      idempotencyKey,
      checksum: intake.checksum,
      contractVersion,
      packageId,
      competitionId,
      files: intake.files,
    },
    { ...context, actor: sender.accountId },
  );
  return { ...result, batchReference, competitionId };
}

/** The one competition the package names; none or several is a package that cannot be received. */
async function resolveCompetition(sql: Sql, intake: Intake): Promise<string> {
  const reference = intake.head.competition;
  const found = candidatesFor(reference, await competitionCandidates(sql));
  const [only] = found;
  if (only && found.length === 1) return only.id;
  throw new PackageUnreadable([
    found.length === 0
      ? { code: "UNRESOLVED_REFERENCE", message: "No competition matches this reference", field: "competition" }
      : {
          code: "AMBIGUOUS_REFERENCE",
          message: `The reference matches ${found.length} competitions (${found
            .slice(0, 5)
            .map((c) => `${c.name}: app:competition:${c.id}`)
            .join("; ")}); name one by its sourceId`,
          field: "competition",
        },
  ]);
}
