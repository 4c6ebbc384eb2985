import { describe, expect, it } from "vitest";
import { fitName, NAME_MAX_LENGTH, name } from "../../streams/shared.js";

describe("fitName: a provider's display name as an account holds it", () => {
  it("trims, and leaves a name within the limit alone", () => {
    expect(fitName("  Asha Rao \n")).toBe("Asha Rao");
  });

  it("cuts a long name to the limit on a code point, never through a surrogate pair", () => {
    const long = `${"a".repeat(NAME_MAX_LENGTH - 1)}😀tail`;
    const fitted = fitName(long);
    expect(fitted).toBe("a".repeat(NAME_MAX_LENGTH - 1));
    expect(name.safeParse(fitted).success).toBe(true);
    expect(name.safeParse(fitName("b".repeat(5 * NAME_MAX_LENGTH))).success).toBe(true);
  });
});
