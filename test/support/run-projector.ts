// Child process for the crash test: catches the counting projector up on the database at
// argv[2], slowly, announcing each committed batch, until the parent kills it.
import postgres from "postgres";
import { PostgresEventStore } from "../../src/event-store/postgres.js";
import { ProjectionRunner } from "../../src/projections/runner.js";
import { countingProjector } from "./counting-projector.js";

const sql = postgres(process.argv[2] as string, { max: 1, onnotice: () => {} });
const runner = new ProjectionRunner(sql, new PostgresEventStore(sql), [countingProjector({ delayMs: 2 })], {
  batchSize: 40,
});
process.stdout.write("started\n");
await runner.catchUp();
process.stdout.write("caught-up\n");
await sql.end();
