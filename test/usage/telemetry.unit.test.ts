import { describe, expect, it } from "vitest";
import { addDays, utcDate } from "../../src/usage/dates.js";
import { routeTemplate, statusClass } from "../../src/usage/telemetry.js";

describe("usage telemetry normalisation", () => {
  it("groups statuses by class", () => {
    expect([200, 204, 304, 400, 401, 404, 422, 429, 500, 503].map(statusClass)).toEqual([
      "2xx",
      "2xx",
      "3xx",
      "4xx",
      "4xx",
      "4xx",
      "4xx",
      "4xx",
      "5xx",
      "5xx",
    ]);
  });

  it("spells Hono's route paths as the OpenAPI document's templates", () => {
    expect(routeTemplate("/api/v1/fixtures/:fixtureId")).toBe("/api/v1/fixtures/{fixtureId}");
    expect(routeTemplate("/api/v1/fixtures/:fixtureId/statistics/:statisticId/events/export.csv")).toBe(
      "/api/v1/fixtures/{fixtureId}/statistics/{statisticId}/events/export.csv",
    );
    expect(routeTemplate("/api/v1/admin/api-consumers/:consumerId{[0-9]+}/usage")).toBe(
      "/api/v1/admin/api-consumers/{consumerId}/usage",
    );
    expect(routeTemplate("/api/v1/consumer/usage")).toBe("/api/v1/consumer/usage");
  });

  it("counts dates in UTC, whatever the hour", () => {
    expect(utcDate(new Date("2026-03-01T23:59:59.999Z"))).toBe("2026-03-01");
    expect(utcDate(new Date("2026-03-02T00:30:00+01:00"))).toBe("2026-03-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -31)).toBe("2025-12-01");
  });
});
