import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { expectError } from "../support/account-api.js";
import type { ApiResponse } from "../support/contract.js";
import { openQuestionApi, type QuestionApi } from "../support/questions.js";

/*
 * POST /query-definitions/evaluate over IPL 2016, one IPL 2008 match (T Kohli's) and one
 * World T20 2016 match: every outcome, the resource as its published read serves it, and
 * definitions that are not valid.
 */
const IPL = cricsheetIds.competition("male", "Indian Premier League");
const IPL_2016 = cricsheetIds.season(IPL, "2016");
const IPL_2008 = cricsheetIds.season(IPL, "2007/08");
const KOHLI = cricsheetIds.participant("ba607b88");
const T_KOHLI = cricsheetIds.participant("40caa465");

let questions: QuestionApi;
let api: ReturnType<QuestionApi["client"]>;
beforeAll(async () => {
  questions = await openQuestionApi();
  api = questions.client();
}, 300_000);
afterAll(() => questions?.close());

type Evaluation = {
  outcome: string;
  definition?: unknown;
  paraphrase?: string;
  endpoint?: string;
  statisticIds?: string[];
  figure?: { path: string; value: unknown } | null;
  resource?: unknown;
  unmatched?: { entity: string; text: string; message: string }[];
  ambiguities?: { entity: string; text: string; candidates: { id: string; label: string }[]; candidateCount: number }[];
};

async function evaluate(definition: unknown): Promise<Evaluation> {
  const res = await api.post("/api/v1/query-definitions/evaluate", definition);
  expect(res.status, res.text).toBe(200);
  return (res.body as { data: Evaluation }).data;
}

/** The answered evaluation's resource is exactly what its endpoint serves. */
async function expectPublished(evaluation: Evaluation) {
  expect(evaluation.outcome).toBe("answered");
  const published = await api.get(evaluation.endpoint as string);
  expect(published.status, published.text).toBe(200);
  expect(evaluation.resource).toEqual(published.body);
}

const seasonBoard = (season: unknown, metric = "most_runs") => ({
  type: "leaderboard",
  metric,
  scope: { type: "season", season },
});

describe("a leaderboard", () => {
  it("by ids returns the published table unchanged, with its endpoint and metric", async () => {
    const answer = await evaluate({ ...seasonBoard({ seasonId: IPL_2016 }), limit: 5 });
    await expectPublished(answer);
    expect(answer.endpoint).toBe(
      `/api/v1/statistics/leaderboards?scope=season&seasonId=${IPL_2016}&metric=most_runs&limit=5`,
    );
    expect(answer.statisticIds).toEqual(["most_runs"]);
    expect(answer.figure).toBeNull();
    expect(answer.paraphrase).toBe("most runs, Indian Premier League 2016, top 5");
    const rows = (answer.resource as { data: { participantName: string; value: number }[] }).data;
    expect(rows.map((r) => [r.participantName, r.value])[0]).toEqual(["V Kohli", 973]);
    expect(rows).toHaveLength(5);
  });

  it("by names: the competition by abbreviation, the season by the year it was played or its label", async () => {
    const byYear = await evaluate(seasonBoard({ competition: { name: "ipl" }, name: "2016" }, "most_wickets"));
    await expectPublished(byYear);
    expect(byYear.definition).toEqual({
      type: "leaderboard",
      metric: "most_wickets",
      scope: { type: "season", season: { seasonId: IPL_2016 } },
      limit: 10,
    });
    for (const name of ["2008", "2007/08", "2007-08", "2007/2008"]) {
      const answer = await evaluate(seasonBoard({ competition: { name: "Indian Premier League" }, name }));
      expect(answer.definition, name).toMatchObject({ scope: { season: { seasonId: IPL_2008 } } });
    }
  });

  it("by a season's ordinal: 1 the first, -1 the latest", async () => {
    const first = await evaluate(seasonBoard({ competition: { name: "IPL" }, ordinal: 1 }));
    expect(first.definition).toMatchObject({ scope: { season: { seasonId: IPL_2008 } } });
    const latest = await evaluate(seasonBoard({ competition: { name: "IPL" }, ordinal: -1 }));
    expect(latest.definition).toMatchObject({ scope: { season: { seasonId: IPL_2016 } } });
    const third = await evaluate(seasonBoard({ competition: { name: "IPL" }, ordinal: 3 }));
    expect(third.unmatched).toEqual([
      { entity: "season", text: "Indian Premier League 3", message: "Indian Premier League has 2 seasons" },
    ]);
  });

  it("over a competition", async () => {
    const answer = await evaluate({
      type: "leaderboard",
      metric: "most_sixes",
      scope: { type: "competition", competition: { competitionId: IPL } },
    });
    await expectPublished(answer);
    expect(answer.paraphrase).toBe("most sixes, Indian Premier League, all seasons");
  });

  it("a season named in two competitions is ambiguous, with both as candidates", async () => {
    const answer = await evaluate(seasonBoard({ name: "2016" }));
    expect(answer.outcome).toBe("ambiguous");
    const [ambiguity] = answer.ambiguities ?? [];
    expect(ambiguity?.entity).toBe("season");
    expect(ambiguity?.candidates.map((c) => c.label).sort()).toEqual([
      "ICC Men's T20 World Cup 2016 (2015/16)",
      "Indian Premier League 2016",
    ]);
    // A candidate's id is enough to ask again.
    await expectPublished(await evaluate(seasonBoard({ seasonId: ambiguity?.candidates[0]?.id })));
  });
});

describe("a participant aggregate", () => {
  it("by a known-as name, one figure: its value beside the published aggregate", async () => {
    const answer = await evaluate({
      type: "participant_aggregate",
      participant: { name: "Virat Kohli" },
      scope: { type: "season", season: { competition: { name: "IPL" }, name: "2016" } },
      figure: "batting.runs",
    });
    await expectPublished(answer);
    expect(answer.endpoint).toBe(`/api/v1/participants/${KOHLI}/statistics/season-${IPL_2016}`);
    expect(answer.statisticIds).toEqual([`season-${IPL_2016}`]);
    expect(answer.figure).toEqual({ path: "batting.runs", value: 973 });
    expect(answer.paraphrase).toBe("V Kohli: batting runs, Indian Premier League 2016");
  });

  it("every figure, over a career or a competition", async () => {
    for (const scope of [{ type: "career" }, { type: "competition", competition: { name: "Indian Premier League" } }]) {
      const answer = await evaluate({ type: "participant_aggregate", participant: { participantId: KOHLI }, scope });
      await expectPublished(answer);
      expect(answer.figure).toBeNull();
    }
  });

  it("finds a player by scorecard name, initials and surname, and a near spelling", async () => {
    for (const name of ["V Kohli", "v. kohli", "Kohli", "KOLHI", "Virat Kholi"]) {
      const answer = await evaluate({
        type: "participant_aggregate",
        participant: { name },
        scope: { type: "season", season: { seasonId: IPL_2016 } },
        figure: "batting.sixes",
      });
      expect([name, answer.outcome, answer.figure?.value]).toEqual([name, "answered", 38]);
    }
  });

  it("narrows a shared surname to the players with figures in the scope, and is ambiguous over a career", async () => {
    const in2008 = await evaluate({
      type: "participant_aggregate",
      participant: { name: "Kohli" },
      scope: { type: "season", season: { seasonId: IPL_2008 } },
    });
    expect((in2008.definition as { participant: unknown }).participant).toEqual({ participantId: T_KOHLI });
    const career = await evaluate({
      type: "participant_aggregate",
      participant: { name: "Kohli" },
      scope: { type: "career" },
    });
    expect(career.outcome).toBe("ambiguous");
    expect(career.ambiguities).toEqual([
      {
        entity: "participant",
        text: "Kohli",
        message: '"Kohli" could be any of 2 players; ask again with one of their ids',
        candidates: [
          { id: KOHLI, label: "V Kohli, 2016, 16 matches" },
          { id: T_KOHLI, label: "T Kohli, 2008, 1 match" },
        ],
        candidateCount: 2,
      },
    ]);
  });

  it("a player with no figures in the scope is no_match on the statistic", async () => {
    const answer = await evaluate({
      type: "participant_aggregate",
      participant: { participantId: T_KOHLI },
      scope: { type: "season", season: { seasonId: IPL_2016 } },
    });
    expect(answer.unmatched).toEqual([
      {
        entity: "statistic",
        text: `season-${IPL_2016}`,
        message: "T Kohli has no figures in Indian Premier League 2016",
      },
    ]);
  });
});

describe("names matching nothing", () => {
  it("are reported together, each with what did not match", async () => {
    const answer = await evaluate({
      type: "participant_aggregate",
      participant: { name: "Xavier Nobody" },
      scope: { type: "competition", competition: { name: "Big Bash League" } },
    });
    expect(answer.outcome).toBe("no_match");
    expect(answer.unmatched).toEqual([
      { entity: "competition", text: "Big Bash League", message: "No competition is known by this name" },
      { entity: "participant", text: "Xavier Nobody", message: "No player is known by this name" },
    ]);
  });

  it("ids that name nothing, and a season a competition does not have", async () => {
    const unknown = await evaluate(seasonBoard({ seasonId: "no-such-season" }));
    expect(unknown.unmatched?.[0]).toMatchObject({ entity: "season", text: "no-such-season" });
    const player = await evaluate({
      type: "participant_aggregate",
      participant: { participantId: "nobody" },
      scope: { type: "career" },
    });
    expect(player.unmatched?.[0]).toMatchObject({ entity: "participant", text: "nobody" });
    const season = await evaluate(seasonBoard({ competition: { name: "IPL" }, name: "2030" }));
    expect(season.unmatched).toEqual([
      { entity: "season", text: "IPL 2030", message: "Indian Premier League has no season 2030" },
    ]);
  });
});

describe("definitions that are not valid", () => {
  const refused = async (body: unknown): Promise<ApiResponse> => {
    const res = await api.post("/api/v1/query-definitions/evaluate", body);
    expectError(res, 422, "VALIDATION_FAILED");
    return res;
  };
  const fields = (res: ApiResponse) =>
    (res.body as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);

  it("are 422 VALIDATION_FAILED naming the field", async () => {
    expect(fields(await refused({ ...seasonBoard({ seasonId: IPL_2016 }), limit: 51 }))).toEqual(["limit"]);
    expect(fields(await refused({ ...seasonBoard({ seasonId: IPL_2016 }), metric: "most_catches" }))).toEqual([
      "metric",
    ]);
    expect(fields(await refused(seasonBoard({ name: "twenty sixteen" })))).toContain("scope.season.name");
    await refused({ type: "leaderboard", metric: "most_runs", scope: { type: "career" } });
    await refused({ type: "participant_aggregate", participant: { name: "" }, scope: { type: "career" } });
    await refused({
      type: "participant_aggregate",
      participant: { name: "V Kohli" },
      scope: { type: "career" },
      figure: "batting.catches",
    });
    await refused({
      type: "participant_aggregate",
      participant: { name: "V Kohli", participantId: KOHLI },
      scope: { type: "career" },
    });
    await refused({ ...seasonBoard({ seasonId: IPL_2016 }), extra: true });
    await refused({});
    await refused([]);
  });

  it("that are not JSON are 400 INVALID_JSON or 415", async () => {
    const post = (body: string, type: string) =>
      api.request("/api/v1/query-definitions/evaluate", { method: "POST", body, headers: { "content-type": type } });
    expectError(await post("{", "application/json"), 400, "INVALID_JSON");
    expectError(await post("{}", "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE");
  });
});

describe("limits", () => {
  it("are the anonymous read limits, whatever key is sent", async () => {
    const limited = questions.client({ anonymousLimits: { perSourcePerMinute: 2, platformPerMinute: 100 } });
    const second = new Date().getUTCSeconds();
    if (second > 50) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const body = seasonBoard({ seasonId: IPL_2016 });
    const headers = { "x-api-key": "not-a-key" };
    for (let i = 0; i < 2; i++)
      expect((await limited.post("/api/v1/query-definitions/evaluate", body, { headers })).status).toBe(200);
    const refused = await limited.post("/api/v1/query-definitions/evaluate", body, { headers });
    expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
