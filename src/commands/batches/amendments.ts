import type { Account } from "../../../streams/account-state.js";
import { batchCatalogue, REFERENCE_TYPES } from "../../../streams/batch.js";
import type { Batch } from "../../../streams/batch-state.js";
import { mayResolve, mayResubmit } from "../../batches/access.js";
import { batchFacts } from "../../batches/facts.js";
import { judgeBatch } from "../../batches/judge.js";
import type { Requirement } from "../../batches/judged.js";
import { batchPackage, type Locate } from "../../batches/package-files.js";
import type { Sql } from "../../db/database.js";
import type { EventStore } from "../../event-store/port.js";
import type { ReadPackage } from "../../ingest/batches/package.js";
import type { Problem } from "../errors.js";
import { type CommandContext, type HandleResult, handleCommand } from "../handle.js";
import { batchDecider } from "./decide.js";
import { BatchRequestInvalid } from "./errors.js";
import { loadBatch } from "./handlers.js";
import { type MapReferences, type ResubmitItems, resubmittableOrRefused, stagedOrRefused } from "./resolution.js";

/**
 * What may change in a judged batch before publication (docs/batches.md, "Resolution" and
 * "Resubmission"), each change validated again in the validator's next round:
 *
 * - reference mappings for a staged batch: each names a reference the report lists as a
 *   requirement (its `referencePath`, and its item's `file` in a package of several) and
 *   the candidate chosen for it. They are checked against the package before anything is
 *   recorded: judged with them, every reference they name must resolve;
 * - replacements its sender sends for items that cannot be published as they are.
 */

type ReferenceType = (typeof REFERENCE_TYPES)[number];

/** One mapping as asked: where the reference is, as the report shows it, and what it should name. */
export type MappingRequest = { referencePath: string; file?: string | undefined; candidate: string };

type Deps = { store: EventStore; sql: Sql };

export async function resubmitBatchItems(
  { store }: Deps,
  { batchReference, account, items }: { batchReference: string; account: Account; items: ResubmitItems["items"] },
  context: CommandContext,
): Promise<HandleResult> {
  const { stream, state } = await loadBatch(store, batchReference);
  // Whoever sees the batch sees its status: one that takes no replacements says so first.
  resubmittableOrRefused(state);
  mayResubmit(account, state);
  const command: ResubmitItems = {
    type: "ResubmitItems",
    items,
    resubmittedByAccountId: account.accountId,
    resubmittedAt: context.now.toISOString(),
  };
  return handleCommand(store, batchCatalogue, stream, batchDecider, command, context);
}

export async function mapBatchReferences(
  deps: Deps,
  { batchReference, account, mappings }: { batchReference: string; account: Account; mappings: MappingRequest[] },
  context: CommandContext,
): Promise<HandleResult> {
  const { stream, history, state } = await loadBatch(deps.store, batchReference);
  mayResolve(account, state);
  stagedOrRefused(state);
  const { read, locate } = await batchPackage(history, state);
  const chosen = await checked(deps, read, locate, state, mappings);
  const command: MapReferences = {
    type: "MapReferences",
    mappings: chosen,
    mappedByAccountId: account.accountId,
    mappedAt: context.now.toISOString(),
  };
  return handleCommand(deps.store, batchCatalogue, stream, batchDecider, command, context);
}

/**
 * The mappings by the package's own paths, each checked: it names a reference the batch
 * must resolve, a candidate of the reference's type, and one the reference's scope holds (a
 * batter in the batting side's squad, a fixture of the competition): judged with every
 * mapping, the reference is resolved. 422 naming each that is not.
 */
async function checked(deps: Deps, read: ReadPackage, locate: Locate, batch: Batch, asked: MappingRequest[]) {
  const open = await openRequirements(deps, read, locate, batch.competitionId);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const chosen = asked.flatMap((m, i) => {
    const at = (field: string, code: string, message: string) => {
      problems.push({ code, message, field: `mappings.${i}.${field}` });
      return [];
    };
    if (seen.has(placeKey(m)))
      return at("referencePath", "DUPLICATE_MAPPING", `${m.referencePath} is mapped once a request`);
    seen.add(placeKey(m));
    const requirement = open.get(placeKey(m));
    if (!requirement)
      return at(
        "referencePath",
        "REQUIREMENT_NOT_FOUND",
        `The batch has no reference to resolve at ${m.file === undefined ? "" : `${m.file}: `}${m.referencePath}`,
      );
    const candidate = candidateOf(m.candidate);
    if (!candidate)
      return at("candidate", "INVALID_FIELD", "Not a candidate reference nor an app:<type>:<id> source id");
    if (candidate.type !== requirement.type)
      return at(
        "candidate",
        "MAPPING_TYPE_MISMATCH",
        `The reference names a ${requirement.type}; the candidate is a ${candidate.type}`,
      );
    return [{ index: i, referencePath: requirement.path, referenceType: candidate.type, entityId: candidate.id }];
  });
  if (problems.length > 0)
    throw new BatchRequestInvalid("Mappings name no reference to resolve; nothing was recorded", problems);

  const mappings = new Map(read.mappings);
  for (const m of chosen) mappings.set(m.referencePath, m.entityId);
  const mapped = { ...read, mappings };
  const still = requirementsByPath(judgeBatch(mapped, await batchFacts(deps, mapped, batch.competitionId)));
  const unfit = chosen.flatMap((m) =>
    still.has(m.referencePath)
      ? [
          {
            code: "MAPPING_NOT_APPLICABLE",
            message: `app:${m.referenceType}:${m.entityId} is not one this reference can name (its squad, the competition's fixtures or seasons hold no such ${m.referenceType})`,
            field: `mappings.${m.index}.candidate`,
          },
        ]
      : [],
  );
  if (unfit.length > 0)
    throw new BatchRequestInvalid("Mappings do not fit their references; nothing was recorded", unfit);
  return chosen.map(({ index: _, ...m }) => m);
}

type Open = { path: string; type: ReferenceType; code: Requirement["code"] };
type Judged = { items: { requirements: Requirement[] }[] };

/** The references the batch must resolve now, judged as validation judges it, by where the report shows them. */
export async function openRequirements(deps: Deps, read: ReadPackage, locate: Locate, competitionId: string) {
  return requirementsByPlace(judgeBatch(read, await batchFacts(deps, read, competitionId)), locate);
}

/** Where the report shows a reference: its file (of several) and its path there. */
export const placeKey = ({ file, referencePath }: { file?: string | undefined; referencePath: string }) =>
  `${file ?? ""}\u0000${referencePath}`;

/** The references still to resolve by the package's own paths. */
const requirementsByPath = ({ items }: Judged) =>
  new Set(items.flatMap((item) => item.requirements.map((r) => r.referencePath)));

/** The references still to resolve, by where the report shows them, with their paths in the package. */
function requirementsByPlace({ items }: Judged, locate: Locate): Map<string, Open> {
  const open = new Map<string, Open>();
  for (const item of items)
    for (const r of item.requirements) {
      const { path, file } = locate(r.referencePath);
      // A judgement made now records every requirement's type; only stored ones may lack it.
      open.set(placeKey({ file, referencePath: path }), {
        path: r.referencePath,
        type: r.referenceType as ReferenceType,
        code: r.code,
      });
    }
  return open;
}

/** A candidate reference from a requirement's candidates, or a canonical `app:<type>:<id>` source id. */
function candidateOf(text: string): { type: ReferenceType; id: string } | undefined {
  const named = text.startsWith("app:") ? text.slice(4) : Buffer.from(text, "base64url").toString("utf8");
  const [type, ...rest] = named.split(":");
  const id = rest.join(":");
  const known = REFERENCE_TYPES.find((t) => t === type);
  return known && id.length > 0 && id.length <= 200 ? { type: known, id } : undefined;
}
