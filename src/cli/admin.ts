import type { Command } from "commander";
import { bootstrapAdmin } from "../commands/accounts/handlers.js";
import type { Runtime } from "../runtime.js";

type WithRuntime = <T>(work: (runtime: Runtime) => Promise<T>) => Promise<T>;

export function adminCommands(program: Command, withRuntime: WithRuntime) {
  const admin = program.command("admin").description("manage accounts from the server side");

  admin
    .command("promote")
    .argument("<subject>", "the identity-provider user id (token `sub`) of the account")
    .description(
      "make an account an administrator, creating it if it was never seen: the way to the first admin " +
        "(there is no HTTP way to obtain a role); running it again changes nothing",
    )
    .action((subject: string) =>
      withRuntime(async ({ store, projections }) => {
        const { account, events } = await bootstrapAdmin(store, subject, { now: new Date() });
        // Read-your-writes: the next request by this user finds the role in the read model.
        await projections.catchUp(["accounts"]);
        const created = events.some((e) => e.type === "AccountCreated");
        process.stdout.write(
          events.length === 0
            ? `${subject} is already an administrator (account ${account.accountId})\n`
            : `${subject} is now an administrator (account ${account.accountId}${created ? ", created" : ""})\n`,
        );
      }),
    );
}
