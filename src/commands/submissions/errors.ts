import { ApiError, type ErrorDetail } from "../../http/errors.js";

/*
 * Domain errors of the submission deciders: ApiErrors, like the account deciders', so the
 * app's one `onError` answers with the envelope and nothing is written.
 */

/**
 * 409: what was valid when checked conflicts with the ledger when it is stored: an event id
 * accepted meanwhile (DUPLICATE_EVENT_ID), or an innings' sequence number or ball position
 * already held by another live delivery (EVENT_CONFLICT). The details say which and where.
 */
export class LedgerConflict extends ApiError {
  constructor(code: "DUPLICATE_EVENT_ID" | "EVENT_CONFLICT", details: ErrorDetail[]) {
    super(
      code,
      code === "DUPLICATE_EVENT_ID"
        ? "An event id is already accepted; nothing was stored"
        : "The events conflict with accepted deliveries; nothing was stored",
      details,
    );
  }
}

/** 404: no accepted delivery has this event id. */
export class DeliveryNotFound extends ApiError {
  constructor(readonly eventId: string) {
    super("NOT_FOUND", "No accepted delivery has this event id");
  }
}
