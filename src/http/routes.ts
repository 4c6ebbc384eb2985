import { registerAccount } from "../account-api/account.js";
import { registerAdminUsers } from "../account-api/admin-users.js";
import { registerSubmitterAccess } from "../account-api/submitter-access.js";
import { registerBatches } from "../batch-api/batches.js";
import { registerAdminConsumers } from "../consumer-api/admin-consumers.js";
import { registerEventProvenance } from "../provenance-api/events.js";
import { registerStatisticProvenance } from "../provenance-api/statistics.js";
import { registerSubmissionProvenance } from "../provenance-api/submissions.js";
import { registerQueryEvaluation } from "../question-api/evaluate.js";
import { registerNaturalLanguageQueries } from "../question-api/natural-language.js";
import { registerCompetitions } from "../read-api/competitions.js";
import { registerCompetitors } from "../read-api/competitors.js";
import { registerFixtureEventExports } from "../read-api/fixture-event-exports.js";
import { registerFixtureEvents } from "../read-api/fixture-events.js";
import { registerFixtureStatisticExports } from "../read-api/fixture-statistic-exports.js";
import { registerFixtureStatistics } from "../read-api/fixture-statistics.js";
import { registerFixtures } from "../read-api/fixtures.js";
import { registerHealth } from "../read-api/health.js";
import { registerLeaderboards } from "../read-api/leaderboards.js";
import { registerParticipantFixtures } from "../read-api/participant-fixtures.js";
import { registerParticipantStatistics } from "../read-api/participant-statistics.js";
import { registerParticipants } from "../read-api/participants.js";
import { registerReadiness } from "../read-api/readiness.js";
import { registerSeasons } from "../read-api/seasons.js";
import { registerAdminDatasetReleases } from "../release-api/admin-releases.js";
import { registerDatasetReleases } from "../release-api/releases.js";
import { registerCorrections } from "../submission-api/corrections.js";
import { registerDeliveryHistory } from "../submission-api/history.js";
import { registerSubmissions } from "../submission-api/submissions.js";
import { registerUsage } from "../usage-api/usage.js";
import { registerAdminVenues } from "../venue-api/admin-venues.js";
import { registerWeather } from "../weather-api/weather.js";
import { registerWeb } from "../web/routes.js";
import type { RouteRegistration } from "./app.js";
import { registerDocumentation } from "./documentation.js";

/**
 * Every operation the service deploys, one registration per route file. The event exports
 * come before the single event: `/events/export.json` must not be read as an event id.
 */
export const apiRoutes: readonly RouteRegistration[] = [
  registerHealth,
  registerReadiness,
  registerDocumentation,
  registerCompetitions,
  registerSeasons,
  registerCompetitors,
  registerParticipants,
  registerParticipantFixtures,
  registerFixtures,
  registerFixtureEventExports,
  registerFixtureEvents,
  registerFixtureStatistics,
  registerFixtureStatisticExports,
  registerParticipantStatistics,
  registerLeaderboards,
  registerQueryEvaluation,
  registerNaturalLanguageQueries,
  registerAccount,
  registerSubmitterAccess,
  registerAdminUsers,
  registerAdminConsumers,
  registerUsage,
  registerSubmissions,
  registerCorrections,
  registerDeliveryHistory,
  registerSubmissionProvenance,
  registerEventProvenance,
  registerStatisticProvenance,
  registerBatches,
  registerDatasetReleases,
  registerAdminDatasetReleases,
  registerWeather,
  registerAdminVenues,
  registerWeb,
];
