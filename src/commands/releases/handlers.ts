import { randomUUID } from "node:crypto";
import { releaseCatalogue, releaseStream } from "../../../streams/release.js";
import type { ReleaseState } from "../../../streams/release-state.js";
import { type EventStore, positionToString } from "../../event-store/port.js";
import { type CommandContext, type HandleResult, handleCommand, loadStream } from "../handle.js";
import { releaseDecider } from "./decide.js";

/**
 * Asks for a release of `version` cut where the log stands now. Of concurrent requests one
 * appends the job and the others find it; the answer is the version's stream as it is after
 * the command: its job (new, reused or published).
 */
export async function requestRelease(
  store: EventStore,
  version: string,
  context: CommandContext,
): Promise<{ outcome: HandleResult; state: NonNullable<ReleaseState> }> {
  const stream = releaseStream(version);
  const position = positionToString(await store.head());
  const command = { type: "RequestRelease" as const, version, jobId: randomUUID(), position };
  const outcome = await handleCommand(store, releaseCatalogue, stream, releaseDecider, command, context);
  const { state } = await loadStream(store, releaseCatalogue, stream, releaseDecider);
  if (!state) throw new Error(`release ${version} has no stream after its request`);
  return { outcome, state };
}
