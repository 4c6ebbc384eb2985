import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string | undefined;
  }
}

/**
 * Picks the real Postgres server the suites use besides embedded PGlite: DATABASE_URL when
 * given (CI), else a testcontainers Postgres where a Docker engine answers, else none (the
 * Postgres variants are then reported as skipped and PGlite carries the suite). The
 * embedded projects run no setup (vitest.config.ts): given no server, their suites open PGlite.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide("postgresUrl", process.env.DATABASE_URL);
    return;
  }
  if (!hasDockerEngine()) {
    project.provide("postgresUrl", undefined);
    return;
  }
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const container = await new PostgreSqlContainer("postgres:16-alpine").start();
  project.provide("postgresUrl", container.getConnectionUri());
  return async () => {
    await container.stop();
  };
}

function hasDockerEngine(): boolean {
  const host = process.env.DOCKER_HOST;
  if (host) return !host.startsWith("unix://") || existsSync(host.slice("unix://".length));
  return existsSync("/var/run/docker.sock");
}
