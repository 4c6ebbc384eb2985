import type { AppDependencies } from "../../src/http/app.js";
import { UNLIMITED } from "../../src/questions/limits.js";
import { testApp } from "./app.js";
import { contractClient } from "./contract.js";
import { CricketWorld } from "./cricket-world.js";
import { openTestDatabase, type TestDatabase } from "./databases.js";
import { importMatches } from "./statistics.js";

/**
 * IPL 2016 (60 matches), one IPL 2008 match T Kohli played in and V Kohli did not
 * (335984), and one World T20 2016 match (951309), so that a season named "2016" is in two
 * competitions and "Kohli" names two players.
 */
export const QUESTION_MATCHES = [
  ...Array.from({ length: 60 }, (_, i) => `ipl/${980901 + 2 * i}.json`),
  "ipl/335984.json",
  "t20i/951309.json",
];

export type QuestionApi = {
  db: TestDatabase;
  /** A client of an app over the same data with these dependencies (limits, counters). */
  client(deps?: Omit<AppDependencies, "logger" | "sql" | "reads">): ReturnType<typeof contractClient>;
  close(): Promise<void>;
};

export async function openQuestionApi(matches: readonly string[] = QUESTION_MATCHES): Promise<QuestionApi> {
  const db = await openTestDatabase();
  const world = new CricketWorld(db.sql);
  await importMatches(world, matches);
  return {
    db,
    client: (deps = {}) =>
      contractClient(
        testApp(undefined, { sql: db.sql, reads: db.reads, limits: { questions: UNLIMITED }, ...deps }).app,
      ),
    close: () => db.close(),
  };
}
