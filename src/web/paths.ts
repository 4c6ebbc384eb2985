/** Where each page is: ids are any text, so each is encoded as one path segment. */
const at = (...segments: string[]) => `/${segments.map(encodeURIComponent).join("/")}`;

export const competitionPage = (id: string) => at("competitions", id);
export const seasonPage = (id: string) => at("seasons", id);
export const leaderboardPage = (seasonId: string, metric: string) => at("seasons", seasonId, "leaderboards", metric);
export const fixturePage = (id: string) => at("fixtures", id);
export const participantPage = (id: string) => at("participants", id);
/** A path of the API under /api/v1. */
export const apiPath = (...segments: string[]) => `/api/v1${at(...segments)}`;
