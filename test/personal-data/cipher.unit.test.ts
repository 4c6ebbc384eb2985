import { describe, expect, it } from "vitest";
import { isSealed, KEY_BYTES, newKey, SealBroken, seal, unseal } from "../../src/personal-data/cipher.js";

/** The envelope a personal value is stored in: AES-256-GCM under its account's key, bound to its place. */
const key = newKey();
const place = "6f1c1d0e-3a5b-4c7d-8e9f-0a1b2c3d4e5f/displayName";

describe("sealing a personal value", () => {
  it.each([
    ["a display name", "Asha Rao"],
    ["text beyond ASCII", "Zoë Ångström 🏏"],
    ["an empty string", ""],
    ["a number", 42],
    ["an object", { given: "Asha", family: "Rao" }],
  ])("opens %s again under the same key and place", (_, value) => {
    expect(unseal(key, seal(key, value, place), place)).toEqual(value);
  });

  it("stores nothing of the value in clear: one `$enc` field, versioned, base64url", () => {
    const sealed = seal(key, "Asha Rao", place);
    expect(Object.keys(sealed)).toEqual(["$enc"]);
    expect(sealed.$enc).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(JSON.stringify(sealed)).not.toContain("Asha");
    expect(Buffer.from(sealed.$enc.slice(3), "base64url").toString("latin1")).not.toContain("Asha");
  });

  it("draws a fresh nonce every time: the same value never seals the same way twice", () => {
    expect(seal(key, "Asha Rao", place).$enc).not.toBe(seal(key, "Asha Rao", place).$enc);
  });

  it("makes 32-byte keys, each different", () => {
    expect(newKey()).toHaveLength(KEY_BYTES);
    expect(newKey().equals(newKey())).toBe(false);
  });
});

describe("a sealed value does not open", () => {
  const sealed = seal(key, "Asha Rao", place);
  const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);

  it("under another key (the account's key was destroyed and another made)", () => {
    expect(() => unseal(newKey(), sealed, place)).toThrow(SealBroken);
  });

  it("in another event or field: copied elsewhere, it fails", () => {
    expect(() => unseal(key, sealed, "00000000-0000-4000-8000-000000000000/displayName")).toThrow(SealBroken);
    expect(() => unseal(key, sealed, place.replace("displayName", "subject"))).toThrow(SealBroken);
  });

  it.each([
    ["a changed nonce", 4],
    ["a changed tag", 20],
    ["a changed ciphertext byte", sealed.$enc.length - 2],
  ])("with %s", (_, at) => {
    expect(() => unseal(key, { $enc: flip(sealed.$enc, at) }, place)).toThrow(SealBroken);
  });

  it("truncated, or of an unknown version", () => {
    expect(() => unseal(key, { $enc: "v1:AAAA" }, place)).toThrow(SealBroken);
    expect(() => unseal(key, { $enc: sealed.$enc.replace("v1:", "v2:") }, place)).toThrow(SealBroken);
  });
});

describe("telling an envelope from a plain value", () => {
  it.each([
    ["an envelope", seal(key, "x", place), true],
    ["a plain name", "Asha Rao", false],
    ["null (erased)", null, false],
    ["an object with more fields", { $enc: "v1:x", other: 1 }, false],
    ["an object whose $enc is not text", { $enc: 1 }, false],
  ])("%s", (_, value, expected) => {
    expect(isSealed(value)).toBe(expected);
  });
});
