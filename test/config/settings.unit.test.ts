import { describe, expect, it } from "vitest";
import { InvalidSettings, loadSettings } from "../../src/config.js";

describe("runtime settings", () => {
  it("defaults to the embedded database on port 3000 under ./data", () => {
    expect(loadSettings({})).toEqual({
      port: 3000,
      dataDir: "./data",
      databaseUrl: undefined,
      redisUrl: undefined,
      eventStoreUrl: undefined,
      logLevel: "info",
      runProjectors: true,
    });
  });

  it("reads every setting from the environment, treating blank values as unset", () => {
    const settings = loadSettings({
      PORT: "8080",
      DATA_DIR: "/var/lib/cricket",
      DATABASE_URL: "postgres://app@db:5432/cricket",
      REDIS_URL: "redis://cache:6379",
      EVENTSTORE_URL: "kurrentdb://events:2113?tls=false",
      LOG_LEVEL: "warn",
      PROJECTORS: "off",
    });
    expect(settings).toMatchObject({
      port: 8080,
      databaseUrl: "postgres://app@db:5432/cricket",
      logLevel: "warn",
      runProjectors: false,
    });
    expect(loadSettings({ DATABASE_URL: "  " }).databaseUrl).toBeUndefined();
  });

  it("fails with one message naming every invalid setting", () => {
    const load = () =>
      loadSettings({ PORT: "eighty", LOG_LEVEL: "loud", DATABASE_URL: "mysql://db/x", REDIS_URL: "cache:6379" });
    expect(load).toThrow(InvalidSettings);
    expect(load).toThrow(
      /PORT must be a whole number.*DATABASE_URL must be a URL.*REDIS_URL must be a URL.*LOG_LEVEL must be one of/,
    );
  });

  it.each([["0.5"], ["-1"], ["70000"]])("rejects PORT=%s", (port) => {
    expect(() => loadSettings({ PORT: port })).toThrow(/PORT/);
  });
});
