import { inspect } from "node:util";
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
      authJwksUrl: undefined,
      authIssuer: undefined,
      authAudience: "authenticated",
      authAdminUrl: undefined,
      authAdminSecret: undefined,
      authSignInUrl: undefined,
      authPublishableKey: undefined,
      serverSecret: undefined,
      anonymousLimits: { perSourcePerMinute: 30, platformPerMinute: 600 },
      batchesPerMinute: 10,
      questionLimits: { perSourcePerMinute: 10, perSourcePerDay: 500, platformPerDay: 50_000 },
      trustedProxyHops: 0,
      corsOrigins: [],
      weather: {
        forecastUrl: "https://api.open-meteo.com",
        archiveUrl: "https://archive-api.open-meteo.com",
        geocodingUrl: "https://geocoding-api.open-meteo.com",
        apiKey: undefined,
      },
    });
  });

  it("reads every setting from the environment, treating blank values as unset", () => {
    const settings = loadSettings({
      PORT: "8080",
      DATA_DIR: "/var/lib/cricket",
      DATABASE_URL: "postgres://app@db:5432/cricket",
      REDIS_URL: "redis://cache:6379",
      SERVER_SECRET: "s".repeat(40),
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

  describe("access to the reads", () => {
    it("reads the anonymous, batch and question limits, trusted proxy hops, CORS origins and the server secret", () => {
      const settings = loadSettings({
        ANONYMOUS_RATE_LIMIT_PER_MINUTE: "45",
        ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE: "900",
        BATCHES_PER_MINUTE: "3",
        QUESTIONS_PER_MINUTE: "4",
        QUESTIONS_PER_DAY: "40",
        QUESTIONS_PLATFORM_PER_DAY: "4000",
        TRUSTED_PROXY_HOPS: "2",
        CORS_ORIGINS: " https://scores.example/ , http://localhost:5173,",
        SERVER_SECRET: "s".repeat(40),
      });
      expect(settings).toMatchObject({
        anonymousLimits: { perSourcePerMinute: 45, platformPerMinute: 900 },
        batchesPerMinute: 3,
        questionLimits: { perSourcePerMinute: 4, perSourcePerDay: 40, platformPerDay: 4000 },
        trustedProxyHops: 2,
        corsOrigins: ["https://scores.example", "http://localhost:5173"],
      });
      expect(settings.serverSecret?.reveal()).toBe("s".repeat(40));
      expect(JSON.stringify(settings)).not.toContain("sss");
    });

    it("requires SERVER_SECRET with REDIS_URL: instances sharing limits must digest keys alike", () => {
      expect(() => loadSettings({ REDIS_URL: "redis://cache:6379" })).toThrow(
        /SERVER_SECRET is required with REDIS_URL/,
      );
      expect(loadSettings({ REDIS_URL: "redis://cache:6379", SERVER_SECRET: "s".repeat(32) }).redisUrl).toBe(
        "redis://cache:6379",
      );
    });

    it("names every invalid one, never echoing the secret", () => {
      const load = () =>
        loadSettings({
          ANONYMOUS_RATE_LIMIT_PER_MINUTE: "0",
          ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE: "lots",
          TRUSTED_PROXY_HOPS: "11",
          QUESTIONS_PER_DAY: "-5",
          CORS_ORIGINS: "https://scores.example/app",
          SERVER_SECRET: "short-secret",
        });
      expect(load).toThrow(
        /SERVER_SECRET must be at least 32.*ANONYMOUS_RATE_LIMIT_PER_MINUTE must be between.*ANONYMOUS_PLATFORM_LIMIT_PER_MINUTE must be a whole number.*QUESTIONS_PER_DAY must be between.*TRUSTED_PROXY_HOPS must be between.*CORS_ORIGINS must be an origin/,
      );
      expect(load).not.toThrow(/short-secret/);
    });
  });

  describe("identity provider", () => {
    const provider = {
      AUTH_JWKS_URL: "https://ref.supabase.co/auth/v1/.well-known/jwks.json",
      AUTH_ISSUER: "https://ref.supabase.co/auth/v1",
    };

    it("reads the provider's JWKS, issuer, audience and admin API", () => {
      const settings = loadSettings({
        ...provider,
        AUTH_AUDIENCE: "cricket",
        AUTH_ADMIN_URL: "https://ref.supabase.co/auth/v1",
        AUTH_ADMIN_SECRET: "sb_secret_abc",
        AUTH_SIGN_IN_URL: "https://ref.supabase.co/auth/v1",
        AUTH_PUBLISHABLE_KEY: "sb_publishable_xyz",
      });
      expect(settings).toMatchObject({
        authJwksUrl: provider.AUTH_JWKS_URL,
        authIssuer: provider.AUTH_ISSUER,
        authAudience: "cricket",
        authAdminUrl: "https://ref.supabase.co/auth/v1",
        authSignInUrl: "https://ref.supabase.co/auth/v1",
        authPublishableKey: "sb_publishable_xyz",
      });
      expect(settings.authAdminSecret?.reveal()).toBe("sb_secret_abc");
    });

    it("never prints the admin secret, neither as JSON nor when inspected", () => {
      const settings = loadSettings({
        ...provider,
        AUTH_ADMIN_URL: "https://x.example",
        AUTH_ADMIN_SECRET: "sb_secret_abc",
      });
      expect(JSON.stringify(settings)).not.toContain("sb_secret_abc");
      expect(inspect(settings)).not.toContain("sb_secret_abc");
      expect(`${settings.authAdminSecret}`).not.toContain("sb_secret_abc");
    });

    it.each([
      [{ AUTH_JWKS_URL: provider.AUTH_JWKS_URL }, /AUTH_ISSUER is required with AUTH_JWKS_URL/],
      [{ AUTH_ISSUER: provider.AUTH_ISSUER }, /AUTH_ISSUER only applies with AUTH_JWKS_URL/],
      [{ AUTH_AUDIENCE: "cricket" }, /AUTH_AUDIENCE only applies with AUTH_JWKS_URL/],
      [
        { ...provider, AUTH_ADMIN_URL: "https://x.example" },
        /AUTH_ADMIN_URL and AUTH_ADMIN_SECRET must be set together/,
      ],
      [{ ...provider, AUTH_ADMIN_SECRET: "s" }, /AUTH_ADMIN_URL and AUTH_ADMIN_SECRET must be set together/],
      [
        { ...provider, AUTH_JWKS_URL: "ftp://x/jwks" },
        /AUTH_JWKS_URL must be a URL starting with https:\/\/ or http:\/\//,
      ],
      [{ ...provider, AUTH_ADMIN_URL: "x.example", AUTH_ADMIN_SECRET: "s" }, /AUTH_ADMIN_URL must be a URL/],
      [
        { ...provider, AUTH_SIGN_IN_URL: "https://x.example" },
        /AUTH_SIGN_IN_URL and AUTH_PUBLISHABLE_KEY must be set together/,
      ],
      [{ AUTH_PUBLISHABLE_KEY: "k" }, /AUTH_PUBLISHABLE_KEY only applies with AUTH_JWKS_URL/],
      [{ ...provider, AUTH_PUBLISHABLE_KEY: "k" }, /AUTH_SIGN_IN_URL and AUTH_PUBLISHABLE_KEY must be set together/],
      [
        { ...provider, AUTH_SIGN_IN_URL: "ftp://x/auth/v1", AUTH_PUBLISHABLE_KEY: "k" },
        /AUTH_SIGN_IN_URL must be a URL starting with https:\/\/ or http:\/\//,
      ],
      [
        { ...provider, AUTH_SIGN_IN_URL: "https://x.example/auth/v1?x=1", AUTH_PUBLISHABLE_KEY: "k" },
        /AUTH_SIGN_IN_URL must be the auth API's base, without a query or fragment/,
      ],
      [
        { ...provider, AUTH_SIGN_IN_URL: "https://x.example/auth/v1", AUTH_PUBLISHABLE_KEY: "sb_secret_abc" },
        /AUTH_PUBLISHABLE_KEY holds a secret key/,
      ],
    ])("refuses %o", (env, message) => {
      expect(() => loadSettings(env)).toThrow(message);
    });

    it("names identity problems beside the others, and never echoes the secret", () => {
      const load = () => loadSettings({ PORT: "eighty", AUTH_ADMIN_SECRET: "sb_secret_abc" });
      expect(load).toThrow(/PORT must be a whole number.*AUTH_ADMIN_SECRET only applies with AUTH_JWKS_URL/);
      expect(load).not.toThrow(/sb_secret_abc/);
    });
  });

  describe("weather provider", () => {
    it("reads the hosts and a subscription's key, and never prints the key", () => {
      const settings = loadSettings({
        WEATHER_FORECAST_URL: "https://customer-api.open-meteo.com",
        WEATHER_ARCHIVE_URL: "https://customer-archive-api.open-meteo.com",
        WEATHER_GEOCODING_URL: "http://proxy.internal/geocoding",
        WEATHER_API_KEY: "om-key-123",
      });
      expect(settings.weather).toMatchObject({
        forecastUrl: "https://customer-api.open-meteo.com",
        archiveUrl: "https://customer-archive-api.open-meteo.com",
        geocodingUrl: "http://proxy.internal/geocoding",
      });
      expect(settings.weather.apiKey?.reveal()).toBe("om-key-123");
      expect(JSON.stringify(settings)).not.toContain("om-key-123");
      expect(inspect(settings)).not.toContain("om-key-123");
    });

    it("refuses a host that is not an http(s) URL", () => {
      expect(() => loadSettings({ WEATHER_ARCHIVE_URL: "archive-api.open-meteo.com" })).toThrow(
        /WEATHER_ARCHIVE_URL must be a URL starting with https:\/\/ or http:\/\//,
      );
    });
  });
});
