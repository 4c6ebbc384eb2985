// Plays a running server for the CLI tests: owns the embedded database in the given
// directory, says "ready", and runs until it is killed.
import { openDatabase } from "../../src/db/database.js";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: embedded-owner.ts <dataDir>");
await openDatabase({ dataDir, databaseUrl: undefined });
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
