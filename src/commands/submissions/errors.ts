import { DomainError, type Problem } from "../errors.js";

/*
 * The submission deciders' refusals, like the account deciders': the app's one `onError`
 * answers them, and nothing is written.
 */

/**
 * What was valid when checked conflicts with the ledger when it is stored: an event id
 * accepted meanwhile (DUPLICATE_EVENT_ID), or an innings' sequence number or ball position
 * already held by another live delivery (EVENT_CONFLICT). The details say which and where.
 */
export class LedgerConflict extends DomainError {
  constructor(
    readonly code: "DUPLICATE_EVENT_ID" | "EVENT_CONFLICT",
    details: Problem[],
  ) {
    super(
      code === "DUPLICATE_EVENT_ID"
        ? "An event id is already accepted; nothing was stored"
        : "The events conflict with accepted deliveries; nothing was stored",
      details,
    );
  }
}

/** No accepted delivery has this event id. */
export class DeliveryNotFound extends DomainError {
  readonly code = "NOT_FOUND";
  constructor(readonly eventId: string) {
    super("No accepted delivery has this event id");
  }
}
