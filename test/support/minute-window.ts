export const MINUTE = 60_000;
/** Ample for a burst of a few dozen requests (a few seconds, even on a slow machine). */
const BURST_MS = 10_000;

/**
 * Waits for the next UTC minute when fewer than `needMs` are left of this one, so a burst
 * meant for one fixed window is not split across two (which would reset the count mid-test).
 */
export async function aWindowWithRoomFor(needMs = BURST_MS) {
  const left = MINUTE - (Date.now() % MINUTE);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
