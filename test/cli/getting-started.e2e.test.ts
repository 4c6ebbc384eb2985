import { execFile } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StartedServer, startServer } from "../support/started-server.js";

/**
 * docs/getting-started.md, as a newcomer follows it: every `sh` block, as written, in one
 * shell (so the variables one block sets serve the next), against a server started as
 * `npm start` starts it. Only the address changes (the doc's localhost:3000 is this
 * server's port), and the data directory the CLI signs with is the server's.
 */
const GUIDE = new URL("../../docs/getting-started.md", import.meta.url);
const REPOSITORY = new URL("../../", import.meta.url).pathname;
const MARK = "@@block";

let server: StartedServer;
let outputs: string[];

const blocksOf = (markdown: string) => [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);

beforeAll(async () => {
  server = await startServer();
  const blocks = blocksOf(await readFile(GUIDE, "utf8"));
  const script = [
    "set -euo pipefail",
    ...blocks.map((block, i) => `echo '${MARK} ${i}'\n${block.replaceAll("http://localhost:3000", server.base)}`),
  ].join("\n");
  const { stdout } = await promisify(execFile)("bash", ["-c", script], {
    cwd: REPOSITORY,
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: "", REDIS_URL: "", EVENTSTORE_URL: "" },
    timeout: 120_000,
  });
  outputs = stdout.split(new RegExp(`^${MARK} \\d+\\n`, "m")).slice(1);
  expect(outputs).toHaveLength(blocks.length);
}, 240_000);
afterAll(async () => {
  await rm(new URL("final.csv", `file://${REPOSITORY}`), { force: true });
  await server?.stop();
});

const lines = (i: number) => (outputs[i] ?? "").trimEnd().split("\n");

describe("docs/getting-started.md, run as written against a started server", () => {
  it("finds the IPL 2016 final, shows its scorecard and downloads its deliveries with readable columns", async () => {
    expect(JSON.parse(lines(0)[0] as string)).toEqual({
      startDate: "2016-05-29",
      venue: "M Chinnaswamy Stadium",
      winner: "Sunrisers Hyderabad",
      by: { runs: 8 },
    });
    expect(lines(1)).toEqual([
      "Sunrisers Hyderabad 208/7",
      "  DA Warner 69 (38) c Iqbal Abdulla b S Aravind",
      expect.stringMatching(/^ {2}S Dhawan \d+ \(\d+\) /),
      expect.stringMatching(/^ {2}MC Henriques \d+ \(\d+\) /),
      expect.stringMatching(/^ {2}Yuvraj Singh \d+ \(\d+\) /),
    ]);
    const deliveries = await fetch(`${server.base}/api/v1/fixtures/${await finalId()}/events/export.json`).then(
      (r) => r.json() as Promise<{ count: number; data: { wickets: { kind: string }[] }[] }>,
    );
    const catches = deliveries.data.filter((d) => d.wickets.some((w) => w.kind === "caught")).length;
    expect(lines(2)).toEqual([
      String(deliveries.count + 1),
      "innings battingTeam bowlingTeam striker nonStriker bowler wicketKind playerOut fielders",
      String(catches),
    ]);
    expect(catches).toBeGreaterThan(0);
  });

  it("finds V Kohli as 'virat kohli' and shows his career", () => {
    expect(JSON.parse(lines(3)[0] as string)).toEqual({
      name: "V Kohli",
      matches: 2,
      runs: 134,
      average: 67,
      strikeRate: 136.73,
    });
  });

  it("shows the season's leaderboard, and the same answer to the question in English", () => {
    const top3 = ["1. V Kohli 134", "2. AM Rahane 126", "3. AB de Villiers 88"];
    expect(lines(4)).toEqual(top3);
    expect(lines(5)).toEqual(["most runs, Indian Premier League 2016", ...top3]);
  });

  it("gets a key as the first administrator and reads under its limit", () => {
    expect(lines(6)).toEqual([expect.stringMatching(/^me is now an administrator \(account [0-9a-f-]+, created\)$/)]);
    const headers = lines(7).map((line) => line.toLowerCase().trim());
    expect(headers).toContain("ratelimit-limit: 600");
    expect(headers).toContain("ratelimit-remaining: 599");
  });

  it("corrects a delivery, and the reads show the new revision", async () => {
    expect(JSON.parse(lines(8)[0] as string)).toEqual({ revision: 2, previousRevision: 1, changed: true });
    const [first] = (
      (await fetch(`${server.base}/api/v1/fixtures/${await finalId()}/events?limit=1`).then((r) => r.json())) as {
        data: { revision: number }[];
      }
    ).data;
    expect(first?.revision).toBe(2);
  });
});

async function finalId() {
  const page = (await fetch(`${server.base}/api/v1/fixtures?season=2016&stage=final`).then((r) => r.json())) as {
    data: { fixtureId: string }[];
  };
  return page.data[0]?.fixtureId as string;
}
