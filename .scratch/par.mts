import postgres from "postgres";
import { connectionOptions, readOptions } from "../src/db/database.js";
for (const o of [connectionOptions, readOptions]) {
  const sql = postgres("postgres://postgres@127.0.0.1:5432/test", { ...o, max: 1 });
  console.log(await sql`select current_setting('jit') j, current_setting('max_parallel_workers_per_gather') p, current_setting('plan_cache_mode') m`);
  await sql.end();
}
