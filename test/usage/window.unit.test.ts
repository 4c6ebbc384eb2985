import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors.js";
import { usageWindow } from "../../src/usage/window.js";

const today = "2026-03-03";

/** The 400 `usageWindow` refuses `query` with: its field and message. */
function refusal(query: { from?: string; to?: string }) {
  try {
    usageWindow(query, today);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, status, details } = error as ApiError;
    expect({ code, status }).toEqual({ code: "VALIDATION_FAILED", status: 400 });
    expect(details).toHaveLength(1);
    return details?.[0];
  }
  throw new Error(`${JSON.stringify(query)} was accepted`);
}

describe("the usage window", () => {
  it("is the latest 7 UTC dates, today's included, without bounds", () => {
    expect(usageWindow({}, today)).toEqual({ from: "2026-02-25", to: "2026-03-03" });
  });

  it("is the 7 dates ending at `to` with `to` alone, and the 7 starting at `from` with `from` alone", () => {
    expect(usageWindow({ to: "2024-03-01" }, today)).toEqual({ from: "2024-02-24", to: "2024-03-01" });
    expect(usageWindow({ from: "2024-02-24" }, today)).toEqual({ from: "2024-02-24", to: "2024-03-01" });
    // Whatever today is: a future or long-past bound alone is 7 dates as well.
    expect(usageWindow({ from: "2026-03-04" }, today)).toEqual({ from: "2026-03-04", to: "2026-03-10" });
    expect(usageWindow({ from: "2025-01-01" }, today)).toEqual({ from: "2025-01-01", to: "2025-01-07" });
  });

  it("stops at the calendar's ends", () => {
    expect(usageWindow({ to: "0001-01-03" }, today)).toEqual({ from: "0001-01-01", to: "0001-01-03" });
    expect(usageWindow({ from: "9999-12-30" }, today)).toEqual({ from: "9999-12-30", to: "9999-12-31" });
  });

  it("takes both bounds as given, one date or 31", () => {
    expect(usageWindow({ from: "2026-01-05", to: "2026-01-05" }, today)).toEqual({
      from: "2026-01-05",
      to: "2026-01-05",
    });
    expect(usageWindow({ from: "2026-01-01", to: "2026-01-31" }, today)).toEqual({
      from: "2026-01-01",
      to: "2026-01-31",
    });
  });

  it("refuses a window that ends before it starts, naming `to`", () => {
    expect(refusal({ from: "2026-01-02", to: "2026-01-01" })).toMatchObject({ code: "INVALID_FIELD", field: "to" });
  });

  it("refuses a window over 31 dates, naming `to`", () => {
    expect(refusal({ from: "2026-01-01", to: "2026-02-01" })).toMatchObject({
      field: "to",
      message: "The window 2026-01-01 to 2026-02-01 spans more than 31 dates",
    });
  });
});
