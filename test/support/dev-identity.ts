import { openIdentity } from "../../src/identity/open.js";

/** The identity of the embedded default: no provider configured, the development issuer of `dataDir`. */
export const developmentIdentity = (dataDir: string) =>
  openIdentity({
    dataDir,
    authJwksUrl: undefined,
    authIssuer: undefined,
    authAudience: "authenticated",
    authAdminUrl: undefined,
    authAdminSecret: undefined,
    authSignInUrl: undefined,
    authPublishableKey: undefined,
  });
