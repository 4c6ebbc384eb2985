import { describe, expect, it } from "vitest";
import { testApp } from "../support/app.js";
import { contractClient } from "../support/contract.js";

describe("the published contract and the running routes", () => {
  const { app } = testApp();
  const { document } = contractClient(app);
  const documented = Object.entries(document.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
    ([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
        status: operation["x-implementation-status"],
      })),
  );
  const registered = new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));

  it("documents every registered route as an implemented operation", () => {
    const implementedOperations = new Set(documented.filter((d) => d.status === "implemented").map((d) => d.key));
    expect([...registered].filter((route) => !implementedOperations.has(route))).toEqual([]);
  });

  it("registers every operation documented as implemented", () => {
    const missing = documented.filter((d) => d.status === "implemented" && !registered.has(d.key));
    expect(missing).toEqual([]);
  });

  it("marks every operation implemented or planned, and no planned one is reachable", () => {
    for (const d of documented) expect(["implemented", "planned"]).toContain(d.status);
    expect(documented.filter((d) => d.status === "planned" && registered.has(d.key))).toEqual([]);
  });
});
