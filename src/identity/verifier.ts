import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import { z } from "zod";
import { storable } from "../../streams/shared.js";

/** Why a bearer token was refused; logged and tested, never shown to the caller beyond the safe message. */
export type InvalidTokenReason =
  | "missing"
  | "malformed"
  | "algorithm_not_allowed"
  | "unknown_key"
  | "invalid_signature"
  | "expired"
  | "not_yet_valid"
  | "wrong_issuer"
  | "wrong_audience"
  | "missing_claim"
  | "invalid_claims"
  | "role_not_allowed"
  | "anonymous_user"
  | "jwks_unavailable";

const SAFE_MESSAGES: Record<InvalidTokenReason, string> = {
  missing: "A bearer token is required.",
  malformed: "The bearer token is malformed.",
  algorithm_not_allowed: "The bearer token is signed with an algorithm that is not accepted.",
  unknown_key: "The bearer token is signed with an unknown key.",
  invalid_signature: "The bearer token's signature is invalid.",
  expired: "The bearer token has expired.",
  not_yet_valid: "The bearer token is not valid yet.",
  wrong_issuer: "The bearer token was issued by an untrusted issuer.",
  wrong_audience: "The bearer token is not meant for this service.",
  missing_claim: "The bearer token lacks a required claim.",
  invalid_claims: "The bearer token's claims are invalid.",
  role_not_allowed: "The bearer token is not a user's access token.",
  anonymous_user: "Anonymous sign-ins cannot use this service.",
  jwks_unavailable: "The bearer token cannot be verified right now.",
};

/**
 * Every refusal of a bearer token. The HTTP layer answers 401 UNAUTHORIZED with
 * `WWW-Authenticate: Bearer` and `message`; `reason` is for logs and tests.
 */
export class InvalidToken extends Error {
  override readonly name = "InvalidToken";
  constructor(
    readonly reason: InvalidTokenReason,
    options?: { cause?: unknown },
  ) {
    super(SAFE_MESSAGES[reason], options);
  }
}

export type VerifiedIdentity = {
  /** The provider's user id (`sub`). */
  subject: string;
  email: string | null;
  displayName: string | null;
  /** When the user last actively authenticated; never `iat` (see `signedInAt` below). */
  signedInAt: Date | null;
  /** The token's `exp`: until when this verification holds (see remembered-tokens.ts). */
  expiresAt: Date;
};

export type TokenVerifier = { verify(token: string | undefined): Promise<VerifiedIdentity> };

/** Only asymmetric algorithms: with HS* anyone holding the verification key could mint tokens. */
export const ASYMMETRIC_ALGORITHMS = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "EdDSA"] as const;
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];

export type KeySource =
  /** The provider's published keys, fetched, cached and refetched by jose when an unknown `kid` appears. */
  | { jwksUrl: string | URL; timeoutMs?: number; cooldownMs?: number; cacheMaxAgeMs?: number }
  /** A key set held in memory (the development issuer). */
  | { jwks: JSONWebKeySet };

export type TokenVerifierOptions = {
  issuer: string;
  audience: string;
  keys: KeySource;
  algorithms?: readonly AsymmetricAlgorithm[];
  clockToleranceSeconds?: number;
};

/** Supabase's legacy API keys are JWTs too; they name a role, not a user. */
const REFUSED_ROLES = new Set(["anon", "service_role", "supabase_admin"]);
/** `amr` methods that are not an active sign-in: a refresh keeps the session, anonymous proves nobody. */
const NOT_A_SIGN_IN = new Set(["token_refresh", "anonymous"]);
/** Longer than any real access token; refused before any parsing work. */
const MAX_TOKEN_LENGTH = 16_384;

// Claims are read leniently: an odd optional claim drops to null instead of refusing the user.
const optionalString = z.string().trim().min(1).nullable().catch(null);
const claimsSchema = z.object({
  // OIDC Core §2: at most 255 characters, and never blank; and text an account can store.
  sub: z
    .string()
    .max(255)
    .refine((s) => s.trim() !== "" && storable(s)),
  // Required and checked by jose already; read here for how long the verification holds.
  exp: z.number().finite(),
  role: z.string().optional().catch(undefined),
  is_anonymous: z.boolean().optional().catch(undefined),
  email: optionalString,
  name: optionalString,
  user_metadata: z.object({ name: optionalString, full_name: optionalString }).partial().optional().catch(undefined),
  auth_time: z.number().finite().optional().catch(undefined),
  amr: z
    .array(z.object({ method: z.string(), timestamp: z.number().finite() }).nullable().catch(null))
    .optional()
    .catch(undefined),
});
type Claims = z.infer<typeof claimsSchema>;

/**
 * The last active sign-in. OIDC providers (Keycloak, Auth0) say it in `auth_time`. Supabase
 * has none; each `amr` entry's `timestamp` is when the user last authenticated with that
 * method, unchanged by token refreshes. `iat` is NOT sign-in time: every refresh issues a
 * new token with a new `iat`, so a week-old session would look fresh.
 */
function signedInAt(claims: Claims): Date | null {
  if (claims.auth_time !== undefined) return new Date(claims.auth_time * 1000);
  const times = (claims.amr ?? []).flatMap((entry) =>
    entry && !NOT_A_SIGN_IN.has(entry.method) ? [entry.timestamp] : [],
  );
  return times.length > 0 ? new Date(Math.max(...times) * 1000) : null;
}

/** Clock skew allowed between the provider and us when judging sign-in freshness. */
const FRESHNESS_SKEW_MS = 60_000;

/**
 * Whether the identity signed in at most `minutes` ago (the 15-minute rule of account
 * deletion). No known sign-in time, or one in the future beyond the skew, is not fresh.
 */
export function signedInWithin(identity: VerifiedIdentity, minutes: number, now: Date = new Date()): boolean {
  if (!identity.signedInAt) return false;
  const age = now.getTime() - identity.signedInAt.getTime();
  return age <= minutes * 60_000 + FRESHNESS_SKEW_MS && age >= -FRESHNESS_SKEW_MS;
}

function keyResolver(keys: KeySource): JWTVerifyGetKey {
  if ("jwks" in keys) return createLocalJWKSet(keys.jwks);
  const remote = createRemoteJWKSet(new URL(keys.jwksUrl), {
    timeoutDuration: keys.timeoutMs ?? 5_000,
    // An unknown kid refetches at most this often, so random kids cannot hammer the provider.
    cooldownDuration: keys.cooldownMs ?? 30_000,
    // Supabase caches its JWKS for 10 minutes; a revoked key may verify for up to that long again here.
    cacheMaxAge: keys.cacheMaxAgeMs ?? 600_000,
  });
  return async (header, token) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      // Timeouts, refused connections, non-200 answers, HTML or a body that is no key set.
      throw new InvalidToken("jwks_unavailable", { cause: error });
    }
  };
}

function reasonFor(error: unknown): InvalidTokenReason {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return "missing_claim";
    if (error.claim === "iss") return "wrong_issuer";
    if (error.claim === "aud") return "wrong_audience";
    if (error.claim === "nbf") return "not_yet_valid";
    return error.reason === "invalid" ? "malformed" : "invalid_claims";
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "algorithm_not_allowed";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "invalid_signature";
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return "unknown_key";
  return "malformed";
}

/**
 * Verifies bearer tokens: signature against the provider's keys, `iss`, `aud`, `exp`/`nbf`
 * (with clock tolerance), then that the token belongs to a signed-in user.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const algorithms = [...(options.algorithms ?? ["ES256", "RS256"])];
  const refused = algorithms.filter((alg) => !(ASYMMETRIC_ALGORITHMS as readonly string[]).includes(alg));
  if (refused.length > 0) throw new TypeError(`not an asymmetric signing algorithm: ${refused.join(", ")}`);
  const getKey = keyResolver(options.keys);

  return {
    async verify(token) {
      if (!token) throw new InvalidToken("missing");
      if (token.length > MAX_TOKEN_LENGTH) throw new InvalidToken("malformed");
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, getKey, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms,
          clockTolerance: options.clockToleranceSeconds ?? 30,
          // A token without `exp` would never expire.
          requiredClaims: ["sub", "exp"],
        }));
      } catch (error) {
        if (error instanceof InvalidToken) throw error;
        throw new InvalidToken(reasonFor(error), { cause: error });
      }
      const parsed = claimsSchema.safeParse(payload);
      if (!parsed.success) throw new InvalidToken("invalid_claims", { cause: parsed.error });
      const claims = parsed.data;
      if (claims.role !== undefined && REFUSED_ROLES.has(claims.role)) throw new InvalidToken("role_not_allowed");
      if (claims.is_anonymous === true) throw new InvalidToken("anonymous_user");
      return {
        subject: claims.sub,
        email: claims.email,
        displayName: claims.user_metadata?.name ?? claims.user_metadata?.full_name ?? claims.name,
        signedInAt: signedInAt(claims),
        expiresAt: new Date(claims.exp * 1000),
      };
    },
  };
}
