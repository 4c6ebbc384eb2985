import { type Command, InvalidArgumentError } from "commander";
import { loadSettings } from "../config.js";
import { openDevIssuer } from "../identity/dev-issuer.js";

const minutes = (value: string) => {
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isFinite(parsed) || parsed < 0)
    throw new InvalidArgumentError("expected minutes (0 or more)");
  return parsed;
};

/** `cricket token`: a bearer token from the development issuer, so a newcomer can call the application routes. */
export function tokenCommands(program: Command) {
  program
    .command("token")
    .description("print a bearer token signed by the development issuer in DATA_DIR (embedded default only)")
    .requiredOption("--subject <subject>", "the user id the token is for (its sub claim)")
    .option("--email <email>", "the email claim")
    .option("--name <name>", "the display name (user_metadata.name)")
    .option(
      "--signed-in-minutes-ago <n>",
      "how long ago the user signed in (account deletion needs 15 or less)",
      minutes,
      0,
    )
    .option("--expires-in-minutes <n>", "how long the token stays valid", minutes, 60)
    .action(
      async (options: {
        subject: string;
        email?: string;
        name?: string;
        signedInMinutesAgo: number;
        expiresInMinutes: number;
      }) => {
        const settings = loadSettings();
        if (settings.authJwksUrl)
          throw new Error(
            "AUTH_JWKS_URL is set, so the service trusts that identity provider, not the development issuer; get a token from the provider",
          );
        const issuer = await openDevIssuer(settings.dataDir);
        const token = await issuer.issueToken({
          subject: options.subject,
          email: options.email,
          displayName: options.name,
          signedInMinutesAgo: options.signedInMinutesAgo,
          expiresInMinutes: options.expiresInMinutes,
        });
        process.stdout.write(`${token}\n`);
      },
    );
}
