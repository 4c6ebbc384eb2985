import { readFileSync } from "node:fs";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { accepts } from "hono/accepts";
import type { HtmlEscapedString } from "hono/utils/html";
import { storable } from "../../streams/shared.js";
import type { Sql } from "../db/database.js";
import { anonymousAccess } from "../http/access.js";
import { implemented, type Router } from "../http/api.js";
import type { AppDependencies } from "../http/app.js";
import { databaseAvailability } from "../http/availability.js";
import { errorResponses } from "../http/errors.js";
import { evaluationContext } from "../question-api/context.js";
import { questionLimits } from "../question-api/natural-language.js";
import { answer as answerQuestion } from "../questions/answer.js";
import { MAX_QUESTION_CHARACTERS } from "../questions/limits.js";
import { SERVICE_NAME } from "../read-api/health.js";
import { leaderboardReader, MAX_LEADERBOARD_LIMIT } from "../read-api/leaderboards.js";
import { readModels } from "../read-api/params.js";
import { loadFixtureStatistics } from "../read-api/queries/fixture-statistics.js";
import { findFixture, listFixtures } from "../read-api/queries/fixtures.js";
import { participantAggregates } from "../read-api/queries/player-statistics.js";
import {
  findCompetition,
  findParticipant,
  findSeason,
  listCompetitions,
  listCompetitors,
  listParticipants,
  listSeasons,
} from "../read-api/queries/reference.js";
import { listReleases } from "../releases/queries.js";
import { METRICS, type Metric } from "../statistics/leaderboards.js";
import { ACCOUNT_ROUTES, registerAccountPages } from "./account-routes.js";
import { ADMIN_ROUTES } from "./admin-routes.js";
import { BATCH_ROUTES } from "./batch-routes.js";
import { htmlPage } from "./html.js";
import { PAGE_POLICY, STYLESHEET_PATH } from "./layout.js";
import { pageErrors } from "./page-errors.js";
import { AskPage } from "./pages/ask.js";
import { CompetitionPage } from "./pages/competition.js";
import { FixturePage } from "./pages/fixture.js";
import { HomePage } from "./pages/home.js";
import { type Leaderboard, LeaderboardPage } from "./pages/leaderboard.js";
import { NotFoundPage } from "./pages/not-found.js";
import { ParticipantPage } from "./pages/participant.js";
import { ReleasesPage } from "./pages/releases.js";
import { SearchPage } from "./pages/search.js";
import { SeasonPage } from "./pages/season.js";
import type { BoardScope } from "./paths.js";
import { registerScripts, SCRIPT_ROUTES } from "./scripts.js";
import { ACCOUNT_PATH } from "./session.js";

/**
 * The web UI (docs/web.md): server-rendered pages over the same query modules the API
 * reads through, no script, one stylesheet. Outside /api/v1 and, but for `/`, outside the
 * contract: they are pages for people, not operations for programs.
 */

const STYLESHEET = readFileSync(new URL("./site.css", import.meta.url), "utf8");

/** The paths of the public pages (Hono's syntax). */
const WEB_PAGES = [
  STYLESHEET_PATH,
  "/search",
  "/competitions/:competitionId",
  "/seasons/:seasonId",
  "/fixtures/:fixtureId",
  "/participants/:participantId",
  "/seasons/:seasonId/leaderboards/:metric",
  "/competitions/:competitionId/leaderboards/:metric",
  "/releases",
  "/ask",
] as const;

/** Every route of the web UI as `METHOD path`, for whoever must tell them from the API's operations. */
export const WEB_ROUTES = [
  ...WEB_PAGES.map((path) => `GET ${path}`),
  ...ACCOUNT_ROUTES,
  ...BATCH_ROUTES,
  ...ADMIN_ROUTES,
  ...SCRIPT_ROUTES,
];

/** Most items a page lists: more than any season has fixtures. */
const PAGE_ITEMS = 500;
const SEARCH_ITEMS = 20;

const indexSchema = z
  .object({
    service: z.string().openapi({ example: SERVICE_NAME }),
    description: z.string(),
    links: z.object({
      competitions: z.string().openapi({ example: "/api/v1/competitions" }),
      documentation: z.string().openapi({ example: "/docs" }),
      contract: z.string().openapi({ example: "/openapi.yaml" }),
      health: z.string().openapi({ example: "/api/v1/health" }),
    }),
  })
  .openapi("ServiceIndex");

const INDEX = {
  service: SERVICE_NAME,
  description: "Ball-by-ball cricket data, published read-only, and statistics derived from it.",
  links: {
    competitions: "/api/v1/competitions",
    documentation: "/docs",
    contract: "/openapi.yaml",
    health: "/api/v1/health",
  },
};

const homeRoute = createRoute({
  method: "get",
  path: "/",
  tags: ["Documentation"],
  operationId: "getHome",
  summary: "The front door: the web UI's home page, or an index of the API",
  description:
    "By `Accept`: a browser (`text/html` preferred) gets the web UI's home page (search, competitions; any query is ignored, as links carry tracking parameters); any other client a small JSON index linking the first collection of the API, its reference, the contract and the health check. Answers `Vary: Accept`. The anonymous read limits apply.",
  ...implemented,
  security: [],
  responses: {
    200: {
      description: "The home page or the index",
      content: { "application/json": { schema: indexSchema }, "text/html": { schema: { type: "string" } } },
    },
    ...errorResponses(429, 503),
  },
});

/** A public page, under the policy that allows no script. */
const page = (c: Context, element: HtmlEscapedString | Promise<HtmlEscapedString>, status: 200 | 404 = 200) =>
  htmlPage(c, element, PAGE_POLICY, status);

const notFound = (c: Context, what: string) => page(c, <NotFoundPage what={what} />, 404);

const first = (take: number) => ({ direction: "asc" as const, take });

/** The `q` of a page, trimmed and cut to `max` code points (never inside a surrogate pair); empty for text no query can hold. */
const queryText = (c: Context, max: number) => {
  const asked = Array.from((c.req.query("q") ?? "").trim())
    .slice(0, max)
    .join("");
  return storable(asked) ? asked : "";
};

/** A path id, or undefined for text no id can be (the database cannot hold it): a page that does not exist. */
const idOf = (c: Context, name: string) => {
  const id = c.req.param(name) ?? "";
  return storable(id) ? id : undefined;
};

export function registerWeb(app: Router, deps: AppDependencies) {
  const sql = readModels(deps);
  const limited = anonymousAccess(deps);
  // Every page, the front door included, is refused at once while the database is away, as the API's reads are.
  for (const path of ["/", ...WEB_PAGES.filter((p) => p !== STYLESHEET_PATH), ACCOUNT_PATH, `${ACCOUNT_PATH}/*`]) {
    app.use(path, pageErrors);
    if (deps.database) app.use(path, databaseAvailability(deps.database));
  }
  registerAccountPages(app, deps);
  registerScripts(app);

  app.get(STYLESHEET_PATH, (c) =>
    c.body(STYLESHEET, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=3600" }),
  );

  // A browser's home page takes any query (links carry tracking parameters); the JSON index is an operation, held to its conventions.
  app.get("/", limited, async (c, next) => {
    c.header("Vary", "Accept");
    const wanted = accepts(c, {
      header: "Accept",
      supports: ["application/json", "text/html"],
      default: "application/json",
    });
    if (wanted !== "text/html") return next();
    const competitions = (await listCompetitions(sql(), first(PAGE_ITEMS))).map((r) => r.item);
    return page(c, <HomePage competitions={competitions} />);
  });
  app.openapi(homeRoute, (c) => c.json(INDEX, 200));

  app.get("/search", limited, async (c) => {
    const query = queryText(c, 100);
    const named = { ...first(SEARCH_ITEMS), name: query };
    const [participants, competitors, competitions] = query
      ? await Promise.all([
          listParticipants(sql(), named),
          listCompetitors(sql(), named),
          listCompetitions(sql(), named),
        ])
      : [[], [], []];
    const items = <T,>(rows: { item: T }[]) => rows.map((r) => r.item);
    return page(
      c,
      <SearchPage
        query={query}
        participants={items(participants)}
        competitors={items(competitors)}
        competitions={items(competitions)}
      />,
    );
  });

  app.get("/competitions/:competitionId", limited, async (c) => {
    const competitionId = idOf(c, "competitionId");
    const competition = competitionId && (await findCompetition(sql(), competitionId));
    if (!competition) return notFound(c, "competition");
    const seasons = await listSeasons(sql(), { competitionId, direction: "desc", take: PAGE_ITEMS });
    return page(c, <CompetitionPage competition={competition} seasons={seasons.map((r) => r.item)} />);
  });

  app.get("/seasons/:seasonId", limited, async (c) => {
    const seasonId = idOf(c, "seasonId");
    const season = seasonId && (await findSeason(sql(), seasonId));
    if (!season) return notFound(c, "season");
    const fixtures = await listFixtures(sql(), { seasonId }, first(PAGE_ITEMS));
    return page(c, <SeasonPage season={season} fixtures={fixtures.map((r) => r.item)} />);
  });

  const leaderboard = leaderboardReader(deps);
  /** A leaderboard page of a season or a competition; a scope or metric that does not exist is a page that does not. */
  const leaderboardOf =
    (type: BoardScope["type"], find: (sql: Sql, id: string) => Promise<unknown>) => async (c: Context) => {
      const id = idOf(c, `${type}Id`);
      const metric = c.req.param("metric") as Metric;
      if (!id || !METRICS.includes(metric) || !(await find(sql(), id))) return notFound(c, "leaderboard");
      const { body } = await leaderboard({ scope: type, scopeId: id, metric, limit: MAX_LEADERBOARD_LIMIT });
      return page(c, <LeaderboardPage board={JSON.parse(body) as Leaderboard} scope={{ type, id }} />);
    };
  app.get("/seasons/:seasonId/leaderboards/:metric", limited, leaderboardOf("season", findSeason));
  app.get("/competitions/:competitionId/leaderboards/:metric", limited, leaderboardOf("competition", findCompetition));

  app.get("/fixtures/:fixtureId", limited, async (c) => {
    const fixtureId = idOf(c, "fixtureId");
    if (!fixtureId) return notFound(c, "fixture");
    const [fixture, statistics] = await Promise.all([
      findFixture(sql(), fixtureId),
      loadFixtureStatistics(sql(), fixtureId),
    ]);
    if (!fixture) return notFound(c, "fixture");
    // Only what an earlier ask cached: a page never waits on the weather provider.
    const { latitude, longitude } = fixture.venue ?? {};
    const weather =
      latitude != null && longitude != null
        ? await deps.weather?.cachedDay(latitude, longitude, fixture.startDate)
        : undefined;
    return page(c, <FixturePage fixture={fixture} statistics={statistics?.document ?? null} weather={weather} />);
  });

  // A question counts against the question limits, as POST /natural-language-queries does; the empty box against the reads'.
  const context = evaluationContext(deps);
  const questionLimited = questionLimits(deps);
  app.get(
    "/ask",
    (c, next) => (queryText(c, MAX_QUESTION_CHARACTERS) ? questionLimited(c, next) : limited(c, next)),
    async (c) => {
      const question = queryText(c, MAX_QUESTION_CHARACTERS);
      const answered = question ? await answerQuestion(await context(), question) : undefined;
      return page(c, <AskPage question={question} answer={answered} />);
    },
  );

  app.get("/releases", limited, async (c) => {
    const releases = await listReleases(sql(), { take: PAGE_ITEMS });
    return page(c, <ReleasesPage releases={releases} />);
  });

  app.get("/participants/:participantId", limited, async (c) => {
    const participantId = idOf(c, "participantId");
    const participant = participantId && (await findParticipant(sql(), participantId));
    if (!participant) return notFound(c, "player");
    const aggregates = await participantAggregates(sql(), participant, {});
    return page(c, <ParticipantPage participant={participant} aggregates={aggregates} />);
  });
}
