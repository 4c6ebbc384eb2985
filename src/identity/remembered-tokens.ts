import { createHash } from "node:crypto";
import { Lru } from "../cache/lru.js";
import type { TokenVerifier, VerifiedIdentity } from "./verifier.js";

export type RememberedTokensOptions = {
  /** Most tokens kept; the least recently used goes first. */
  maxTokens?: number;
  /**
   * Longest a token is trusted without verifying it again. Its signing key may be
   * withdrawn meanwhile; the verifier's own key set is refreshed every 10 minutes, so this
   * adds at most a minute to how long such a token still works.
   */
  maxAgeMs?: number;
  /** Clock in milliseconds (tests move it). */
  now?: () => number;
};

/**
 * A verifier that remembers the tokens it accepted, each until its `exp` (and at most
 * `maxAgeMs`): a client sends the same token with every request of its lifetime, and
 * verifying its signature again would say nothing new. Only accepted tokens are kept, so
 * a refused one (forged, expired, another issuer's) is verified in full every time and
 * junk grows nothing. Tokens are kept by their SHA-256: the process holds none it could
 * replay. What the token allows is not remembered here: that is the account's, read from
 * its stream on every request.
 */
export function rememberingVerifier(
  verifier: TokenVerifier,
  { maxTokens = 10_000, maxAgeMs = 60_000, now = Date.now }: RememberedTokensOptions = {},
): TokenVerifier {
  const accepted = new Lru<{ identity: VerifiedIdentity; until: number }>(maxTokens);
  return {
    async verify(token) {
      if (!token) return verifier.verify(token);
      const key = createHash("sha256").update(token).digest("base64url");
      const kept = accepted.get(key);
      if (kept && now() < kept.until) return kept.identity;
      accepted.delete(key);
      const identity = await verifier.verify(token);
      accepted.set(key, { identity, until: Math.min(identity.expiresAt.getTime(), now() + maxAgeMs) });
      return identity;
    },
  };
}
