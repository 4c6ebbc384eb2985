import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { startWeatherProvider } from "./weather-provider.js";

export type StartedServer = { base: string; dataDir: string; stop(): Promise<void> };

const freePort = async () => {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

/**
 * `npm start` as a newcomer runs it: bin/server.js on the embedded default in a fresh data
 * directory, so it loads the sample on its first start, on a machine whose weather provider
 * cannot be reached (as on these machines, which have no internet). Resolves once it answers.
 */
export async function startServer(): Promise<StartedServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "cricket-server-"));
  const gone = await startWeatherProvider();
  await gone.close(); // a port nobody listens on
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["bin/server.js"], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: "error",
      DATABASE_URL: "",
      REDIS_URL: "",
      EVENTSTORE_URL: "",
      WEATHER_FORECAST_URL: gone.url,
      WEATHER_ARCHIVE_URL: gone.url,
      WEATHER_GEOCODING_URL: gone.url,
    },
    stdio: "ignore",
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await once(server, "exit");
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  for (const deadline = Date.now() + 90_000; ; ) {
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, dataDir, stop };
    if (Date.now() > deadline || server.exitCode !== null) {
      await stop();
      throw new Error("the server did not answer within 90 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
