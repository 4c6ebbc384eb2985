/** Where each page is: ids are any text, so each is encoded as one path segment. */
const at = (...segments: string[]) => `/${segments.map(encodeURIComponent).join("/")}`;

export const competitionPage = (id: string) => at("competitions", id);
export const seasonPage = (id: string) => at("seasons", id);
/** A leaderboard's scope: a season or a competition, by id. */
export type BoardScope = { type: "season" | "competition"; id: string };
export const scopePage = (scope: BoardScope) => at(scope.type === "season" ? "seasons" : "competitions", scope.id);
export const leaderboardPage = (scope: BoardScope, metric: string) => `${scopePage(scope)}/leaderboards/${metric}`;
export const fixturePage = (id: string) => at("fixtures", id);
export const participantPage = (id: string) => at("participants", id);
/** A path of the API under /api/v1. */
export const apiPath = (...segments: string[]) => `/api/v1${at(...segments)}`;
