import { PGlite } from "@electric-sql/pglite";
const db = await PGlite.create();
console.log((await db.query("show jit")).rows, (await db.query("select pg_jit_available()")).rows);
