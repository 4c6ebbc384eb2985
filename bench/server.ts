import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, stat } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** `bin/server.js` in a process of its own (projectors on), answering /health on the port it is given. */
export type Server = { child: ChildProcess; origin: string };

export async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["bin/server.js"], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), REDIS_URL: "", EVENTSTORE_URL: "", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; ) {
    const ready = await fetch(`${origin}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child: server, origin };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  server.kill("SIGKILL");
  throw new Error("the server did not answer /health within 120 s");
}

export async function stopServer({ child }: Server) {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}
