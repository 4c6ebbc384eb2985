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
 * embedded projects get none, so their suites open PGlite.
 */
export default async function setup(project: TestProject) {
  // The second run of the single-database suites (vitest.config.ts) is the embedded one (and its files that run alone).
  if (project.name.startsWith("embedded")) {
    project.provide("postgresUrl", undefined);
    return;
  }
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
