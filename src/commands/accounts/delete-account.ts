import type { EventStore } from "../../event-store/port.js";
import { type IdentityProviderAdmin, ProviderUnavailable } from "../../identity/provider-admin.js";
import { type AccountContext, type AccountOutcome, finaliseDeletion, requestDeletion } from "./handlers.js";

export type DeletionResult =
  | { deleted: true; outcome: AccountOutcome }
  | { deleted: false; outcome: AccountOutcome; failure: ProviderUnavailable };

/**
 * Account deletion as one process over three idempotent steps: disable the account (locked
 * out at once), hard-delete the user at the identity provider, tombstone the account. When
 * the provider fails, the account stays disabled and the same call, repeated, finishes.
 * `outcome` is the last step that was taken.
 */
export async function deleteAccount(
  store: EventStore,
  provider: IdentityProviderAdmin,
  { accountId, subject }: { accountId: string; subject: string },
  context: AccountContext,
): Promise<DeletionResult> {
  const disabled = await requestDeletion(store, accountId, context);
  try {
    await provider.deleteUser(subject);
  } catch (error) {
    if (!(error instanceof ProviderUnavailable)) throw error;
    return { deleted: false, outcome: disabled, failure: error };
  }
  return { deleted: true, outcome: await finaliseDeletion(store, accountId, context) };
}
