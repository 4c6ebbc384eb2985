import { InvalidSettings, type Settings } from "../config.js";
import { type DevIssuer, openDevIssuer } from "./dev-issuer.js";
import { openPasswordSignIn, type PasswordSignIn } from "./password-sign-in.js";
import { type IdentityProviderAdmin, openProviderAdmin } from "./provider-admin.js";
import { rememberingVerifier } from "./remembered-tokens.js";
import { createTokenVerifier, type TokenVerifier } from "./verifier.js";

export type Identity = {
  verifier: TokenVerifier;
  /** The development issuer, present only when it is the trusted one (no AUTH_JWKS_URL). */
  devIssuer?: DevIssuer;
  /** The provider's admin API, present only when AUTH_ADMIN_URL and AUTH_ADMIN_SECRET are set. */
  providerAdmin?: IdentityProviderAdmin;
  /** Email and password sign-in at the provider, present only when AUTH_SIGN_IN_URL and AUTH_PUBLISHABLE_KEY are set. */
  passwordSignIn?: PasswordSignIn;
};

export type IdentitySettings = Pick<
  Settings,
  | "dataDir"
  | "authJwksUrl"
  | "authIssuer"
  | "authAudience"
  | "authAdminUrl"
  | "authAdminSecret"
  | "authSignInUrl"
  | "authPublishableKey"
>;

/**
 * The identity provider the settings name: the real one's JWKS (and admin API) when
 * AUTH_JWKS_URL is set, otherwise the development issuer kept in DATA_DIR. Never both:
 * once a real provider is configured, dev tokens are refused.
 */
export async function openIdentity(settings: IdentitySettings): Promise<Identity> {
  if (settings.authJwksUrl) {
    if (!settings.authIssuer) throw new InvalidSettings("AUTH_ISSUER is required with AUTH_JWKS_URL");
    const verifier = rememberingVerifier(
      createTokenVerifier({
        issuer: settings.authIssuer,
        audience: settings.authAudience,
        keys: { jwksUrl: settings.authJwksUrl },
      }),
    );
    const passwordSignIn = openPasswordSignIn(settings);
    return { verifier, providerAdmin: openProviderAdmin(settings), ...(passwordSignIn ? { passwordSignIn } : {}) };
  }
  const devIssuer = await openDevIssuer(settings.dataDir);
  const verifier = rememberingVerifier(
    createTokenVerifier({
      issuer: devIssuer.issuer,
      audience: devIssuer.audience,
      keys: { jwks: devIssuer.jwks },
    }),
  );
  return { verifier, devIssuer };
}
