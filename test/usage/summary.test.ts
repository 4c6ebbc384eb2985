import { describe, expect, it } from "vitest";
import { dailyUsage, endpointUsage } from "../../src/usage/summary.js";

const row = (date: string, endpoint: string, statusClass: string, requests: number) => ({
  date,
  endpoint,
  statusClass,
  requests,
});

describe("usage summaries", () => {
  const rows = [
    row("2026-03-03", "GET /api/v1/fixtures", "2xx", 5),
    row("2026-03-03", "GET /api/v1/fixtures", "4xx", 1),
    row("2026-03-01", "GET /api/v1/fixtures/{fixtureId}", "2xx", 2),
    row("2026-03-01", "GET /api/v1/fixtures/{fixtureId}", "5xx", 4),
    row("2026-03-01", "GET /api/v1/seasons", "2xx", 6),
  ];

  it("holds every date of the window, oldest first, a quiet one with nothing", () => {
    expect(dailyUsage(rows, { from: "2026-02-28", to: "2026-03-03" })).toEqual([
      { date: "2026-02-28", requests: {} },
      { date: "2026-03-01", requests: { "2xx": 8, "5xx": 4 } },
      { date: "2026-03-02", requests: {} },
      { date: "2026-03-03", requests: { "2xx": 5, "4xx": 1 } },
    ]);
  });

  it("ends at the last date there is", () => {
    expect(dailyUsage([], { from: "9999-12-30", to: "9999-12-31" }).map((d) => d.date)).toEqual([
      "9999-12-30",
      "9999-12-31",
    ]);
  });

  it("totals each endpoint, busiest first and by name on a tie, counting its refusals", () => {
    expect(endpointUsage(rows)).toEqual([
      { endpoint: "GET /api/v1/fixtures", requests: 6, refused: 1 },
      { endpoint: "GET /api/v1/fixtures/{fixtureId}", requests: 6, refused: 4 },
      { endpoint: "GET /api/v1/seasons", requests: 6, refused: 0 },
    ]);
    expect(endpointUsage([...rows, row("2026-03-02", "GET /api/v1/seasons", "2xx", 1)])[0]).toEqual({
      endpoint: "GET /api/v1/seasons",
      requests: 7,
      refused: 0,
    });
  });
});
