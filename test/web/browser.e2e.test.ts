import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchView, findBatch } from "../../src/batches/queries.js";
import { BatchValidator } from "../../src/batches/validator.js";
import { bootstrapAdmin } from "../../src/commands/accounts/handlers.js";
import { createLogger } from "../../src/http/logging.js";
import { cricsheetIds } from "../../src/ingest/cricsheet/ids.js";
import { importCricsheet } from "../../src/ingest/cricsheet/import.js";
import { SAMPLE } from "../../src/ingest/sample-ids.js";
import { SAMPLE_DIRECTORY } from "../../src/ingest/samples.js";
import { UsageRecorder } from "../../src/usage/recorder.js";
import { type AccountApi, openAccountApi } from "../support/account-api.js";
import { testApp } from "../support/app.js";
import { cricsheetFile } from "../support/cricsheet.js";
import { cricsheetPackage } from "../support/cricsheet-packages.js";
import { developmentIdentity } from "../support/dev-identity.js";
import { listening } from "../support/listening.js";
import { aPublishedRelease, releaseGenerator } from "../support/releases.js";

/**
 * The web UI in a real browser (Debian's Chromium, driven by playwright-core; nothing
 * downloads a browser): every page renders the sample matches, a reader gets from the home
 * page's search to a player, axe finds no serious accessibility violation, and each page
 * is written as a screenshot to test-results/screenshots/.
 */
const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOTS = path.resolve("test-results/screenshots");
const AXE = readFileSync(path.resolve("node_modules/axe-core/axe.min.js"), "utf8");
/** An IPL 2017 match of V Kohli's, beside the sample's 2016 ones. */
const KOHLI_2017 = "ipl/1082602.json";
/** The issue's budget per page. */
const MAX_PAGE_BYTES = 150 * 1024;

let a: AccountApi;
let server: Server;
let browser: Browser;
let base: string;
/** The same service on the embedded default's identity: its development issuer signs in by name. */
let local: { server: Server; base: string; dataDir: string };
/** Validates batches in the background, as the service's workers do. */
let validator: BatchValidator;
/** Counts the local server's keyed requests, as the service does. */
let usage: UsageRecorder;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does)`);
  a = await openAccountApi();
  // The sample, and a match of Kohli's next season: his page charts two seasons.
  const imported = await importCricsheet(a.world.store, [SAMPLE_DIRECTORY, cricsheetFile(KOHLI_2017)]);
  expect(imported.failed).toEqual([]);
  await a.world.catchUp();
  ({ server, base } = await listening(a.app));
  const dataDir = mkdtempSync(path.join(tmpdir(), "cricket-dev-issuer-"));
  const identity = await developmentIdentity(dataDir);
  usage = new UsageRecorder(a.db.sql, createLogger("silent"));
  local = { ...(await listening(testApp(undefined, a.deps({ identity, usage })).app)), dataDir };
  validator = new BatchValidator({ sql: a.db.sql, store: a.world.store, logger: createLogger("silent") });
  validator.start(a.world.runner);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await validator?.stop();
  await usage?.close();
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => local?.server.close(resolve));
  if (local) rmSync(local.dataDir, { recursive: true, force: true });
  await a?.close();
});

/** Opens a page (axe may run in it: its policy is bypassed for the test's script alone). */
async function open(target: string, on = base): Promise<{ page: Page; status: number; bytes: number }> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const response = await page.goto(`${on}${target}`);
  if (!response) throw new Error(`no answer for ${target}`);
  return { page, status: response.status(), bytes: (await response.body()).length };
}

/** axe-core's serious and critical violations of WCAG 2 A/AA on the page. */
async function seriousViolations(page: Page) {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(options: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    return (await axe.run({ runOnly: ["wcag2a", "wcag2aa", "wcag21aa"] })).violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.nodes.length})`);
}

const PAGES: [name: string, target: string, shows: string][] = [
  ["home", "/", "Indian Premier League"],
  ["search", "/search?q=kohli", "V Kohli"],
  ["competition", `/competitions/${SAMPLE.competitionId}`, "Seasons"],
  ["season", `/seasons/${SAMPLE.seasonId}`, "Royal Challengers Bangalore v Sunrisers Hyderabad"],
  ["fixture", `/fixtures/${SAMPLE.fixtureId}`, "Sunrisers Hyderabad won by 8 runs"],
  ["participant", `/participants/${SAMPLE.participantId}`, "V Kohli"],
  ["leaderboard", `/seasons/${SAMPLE.seasonId}/leaderboards/most_runs`, "Qualification"],
  ["competition-leaderboard", `/competitions/${SAMPLE.competitionId}/leaderboards/most_wickets`, "Qualification"],
  ["test-match", `/fixtures/${cricsheetIds.fixture("1322356")}`, "New Zealand won by 1 run"],
  ["ask", `/ask?q=${encodeURIComponent("Who scored the most runs in IPL 2016?")}`, "AB de Villiers"],
  ["not-found", "/fixtures/no-such-fixture", "No such fixture"],
];

describe("the web UI in Chromium", () => {
  for (const [name, target, shows] of PAGES) {
    it(`renders ${name} (${target}) within budget, with no serious accessibility violation`, async () => {
      const { page, status, bytes } = await open(target);
      expect(status).toBe(name === "not-found" ? 404 : 200);
      expect(bytes).toBeLessThan(MAX_PAGE_BYTES);
      await expect(page.getByText(shows, { exact: false }).first().isVisible()).resolves.toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
      await page.context().close();
    });
  }

  it("draws the fixture's worm and Manhattan, with a scorecard for each innings", async () => {
    const { page } = await open(`/fixtures/${SAMPLE.fixtureId}`);
    expect(await page.locator("figure.chart svg").count()).toBe(2);
    expect(await page.locator("figure.chart polyline").count()).toBe(2); // a worm line an innings
    expect(await page.locator("figure.chart rect").count()).toBe(40); // twenty overs each
    expect(await page.locator("table caption", { hasText: "Batting" }).count()).toBe(2);
    const kohli = page.locator("tr", { has: page.locator("th a", { hasText: /^V Kohli$/ }) }).first();
    await expect(kohli.textContent()).resolves.toMatch(/b BB Sran/);
    await page.context().close();
  });

  it("takes a reader from the home page's search to a player's career, without a script", async () => {
    const { page } = await open("/");
    await page.getByLabel("Search players, teams and competitions").fill("kohli");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: "V Kohli" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("V Kohli");
    // Figures and charts as the API's statistics give them: runs a season, in the table and in the chart.
    const statistics = (await (
      await fetch(`${base}/api/v1/participants/${SAMPLE.participantId}/statistics`)
    ).json()) as { data: { scope: { type: string; name: string | null }; batting: { runs: number } }[] };
    const career = statistics.data.find((a) => a.scope.type === "career");
    const seasons = statistics.data.filter((a) => a.scope.type === "season");
    expect(seasons.map((s) => s.scope.name)).toEqual(["2016", "2017"]);
    await expect(
      page
        .getByRole("row", { name: /^Career/ })
        .first()
        .textContent(),
    ).resolves.toContain(String(career?.batting.runs));
    await expect(page.locator("#runs-0").textContent()).resolves.toBe(
      `Runs a season, Indian Premier League: ${seasons.map((s) => `${s.scope.name} ${s.batting.runs}`).join(", ")}.`,
    );
    expect(await page.locator("script").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "participant-seasons.png"), fullPage: true });
    await page.context().close();
  });

  it("ranks a season's players as the leaderboard API does, and links the other metrics", async () => {
    const api = (await (
      await fetch(
        `${base}/api/v1/statistics/leaderboards?scope=season&seasonId=${SAMPLE.seasonId}&metric=most_runs&limit=50`,
      )
    ).json()) as { data: { rank: number; participantName: string; value: number }[] };
    const { page } = await open(`/seasons/${SAMPLE.seasonId}/leaderboards/most_runs`);
    const rows = await page.locator("tbody tr").allTextContents();
    expect(rows.length).toBe(api.data.length);
    expect(rows[0]).toBe(`${api.data[0]?.rank}${api.data[0]?.participantName}${api.data[0]?.value}`);
    await page.getByRole("link", { name: "Most wickets" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/^Most wickets/);
    await page.context().close();
    expect((await fetch(`${base}/seasons/${SAMPLE.seasonId}/leaderboards/most_ducks`)).status).toBe(404);
  });

  it("shows the fixture's weather once an ask has fetched it, and never asks the provider itself", async () => {
    const fixturePage = `/fixtures/${SAMPLE.fixtureId}`;
    const before = await open(fixturePage);
    expect(await before.page.getByText("Weather", { exact: true }).count()).toBe(0);
    await before.page.context().close();
    expect(a.weatherProvider.requests).toHaveLength(0);

    a.weatherProvider.placesFor("Bangalore", [
      { id: 1277333, name: "Bangalore", latitude: 12.97194, longitude: 77.59369, country: "India" },
    ]);
    const asked = await fetch(`${base}/api/v1/fixtures/${SAMPLE.fixtureId}/weather`);
    expect(((await asked.json()) as { data: { availability: string } }).data.availability).toBe("available");
    const calls = a.weatherProvider.requests.length;
    const { page } = await open(fixturePage);
    await expect(page.locator("dd", { hasText: "°C high" }).textContent()).resolves.toMatch(
      /^32\.1 °C high, 26\.3 °C low, 0 mm rain, wind up to 14\.9 km\/h \(Weather data by Open-Meteo\.com\)$/,
    );
    expect(a.weatherProvider.requests).toHaveLength(calls);
    await page.context().close();
  });

  it("ranks a competition's players across its seasons as the leaderboard API does, from the competition's page", async () => {
    const api = (await (
      await fetch(
        `${base}/api/v1/statistics/leaderboards?scope=competition&competitionId=${SAMPLE.competitionId}&metric=most_wickets&limit=50`,
      )
    ).json()) as { data: { rank: number; participantName: string; value: number }[] };
    const { page } = await open(`/competitions/${SAMPLE.competitionId}`);
    await page.getByRole("link", { name: "most wickets" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "Most wickets, Indian Premier League",
    );
    const rows = await page.locator("tbody tr").allTextContents();
    expect(rows).toEqual(api.data.map((r) => `${r.rank}${r.participantName}${r.value}`));
    await page.getByRole("link", { name: "Indian Premier League" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Indian Premier League");
    await page.context().close();
    expect((await fetch(`${base}/competitions/${SAMPLE.seasonId}/leaderboards/most_runs`)).status).toBe(404);
  });

  it("answers a question in English as the API does, and says what it could not read", async () => {
    const question = "Who scored the most runs in IPL 2016?";
    const api = (await (
      await fetch(`${base}/api/v1/natural-language-queries`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question }),
      })
    ).json()) as {
      data: { paraphrase: string; resource: { data: { rank: number; participantName: string; value: number }[] } };
    };
    const { page } = await open("/ask");
    await page.getByLabel("Your question").fill(question);
    await page.getByRole("button", { name: "Ask" }).click();
    await expect(page.locator("#reading").textContent()).resolves.toBe(api.data.paraphrase);
    const rows = await page.locator("tbody tr").allTextContents();
    expect(rows).toEqual(api.data.resource.data.map((r) => `${r.rank}${r.participantName}${r.value}`));
    await page.getByRole("link", { name: "V Kohli" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("V Kohli");
    await page.goto(`${base}/ask?q=${encodeURIComponent("what is the meaning of cricket")}`);
    await expect(page.getByRole("heading", { level: 2 }).first().textContent()).resolves.toBe("Not understood");
    expect(await page.locator("script").count()).toBe(0);
    await page.context().close();
  });

  it("lists the published releases with their downloads and checksums", async () => {
    const none = await open("/releases");
    await expect(none.page.getByText("No release is published yet.").isVisible()).resolves.toBe(true);
    await none.page.context().close();
    const admin = await a.anAdmin();
    await aPublishedRelease(a, admin.token, "1.0.0");
    const metadata = (await (await fetch(`${base}/api/v1/dataset-releases/1.0.0`)).json()) as {
      data: { sha256: string; artifactUrl: string };
    };
    const { page } = await open("/releases");
    const row = page.locator("tbody tr").first();
    await expect(row.locator("th").textContent()).resolves.toBe("1.0.0");
    await expect(row.locator("code").textContent()).resolves.toBe(metadata.data.sha256);
    await expect(row.getByRole("link").getAttribute("href")).resolves.toBe(metadata.data.artifactUrl);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "releases.png"), fullPage: true });
    await page.context().close();
  });

  it("draws a Test's four innings in the worm, keeping the legend in the chart, and no crowded Manhattan", async () => {
    const { page } = await open(`/fixtures/${cricsheetIds.fixture("1322356")}`);
    expect(await page.locator("figure.chart polyline").count()).toBe(4);
    expect(await page.locator("figure.chart").count()).toBe(1);
    type Box = { getBoundingClientRect(): { right: number } };
    const chart = page.locator("figure.chart svg");
    const chartRight = await chart.evaluate((svg) => (svg as unknown as Box).getBoundingClientRect().right);
    const legend = await page
      .locator("figure.chart svg > g:last-child text")
      .evaluateAll((texts) => texts.map((t) => (t as unknown as Box).getBoundingClientRect().right));
    expect(legend).toHaveLength(4);
    for (const right of legend) expect(right).toBeLessThanOrEqual(chartRight);
    await page.context().close();
  });

  it("opens the home page for a browser whatever the query (links carry tracking parameters), the index stays strict", async () => {
    const browserAsk = await fetch(`${base}/?utm_source=newsletter&fbclid=x`, { headers: { accept: "text/html" } });
    expect(browserAsk.status).toBe(200);
    expect(browserAsk.headers.get("content-type")).toMatch(/^text\/html/);
    const clientAsk = await fetch(`${base}/?utm_source=newsletter`);
    expect(clientAsk.status).toBe(400);
    expect((await fetch(`${base}/`)).headers.get("vary")).toBe("Accept");
  });

  it("searches with text cut on a whole character, an emoji never split", async () => {
    const query = `kohli${"🏏".repeat(60)}`;
    const { page } = await open(`/search?q=${encodeURIComponent(query)}`);
    await expect(page.getByLabel("Search players, teams and competitions").inputValue()).resolves.toBe(
      Array.from(query).slice(0, 100).join(""),
    );
    await page.context().close();
  });

  it("runs every page under a policy that allows no script", async () => {
    const res = await fetch(`${base}/fixtures/${SAMPLE.fixtureId}`);
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'self'/);
    expect(res.headers.get("content-security-policy")).not.toMatch(/script-src/);
  });
});

describe("the signed-in pages in Chromium, on the embedded default's development issuer", () => {
  /** Signs in by name on the local server's sign-in page, as a newcomer does. */
  async function signedIn(name: string) {
    const { page } = await open("/account", local.base);
    await page.getByLabel("Your name").fill(name);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(name);
    return page;
  }

  it("lets a viewer ask for access, an administrator approve it, and the submitter send a package and read its report", async () => {
    const signIn = await open("/account", local.base);
    await expect(signIn.page.getByText("signs you in under any name you type").isVisible()).resolves.toBe(true);
    expect(await seriousViolations(signIn.page)).toEqual([]);
    await signIn.page.screenshot({ path: path.join(SCREENSHOTS, "sign-in.png"), fullPage: true });
    await signIn.page.context().close();

    const submitter = await signedIn("sunil");
    await expect(submitter.getByText("Signed in as viewer").isVisible()).resolves.toBe(true);
    await submitter
      .getByLabel("Competition you would submit data for")
      .selectOption({ label: "Indian Premier League" });
    await submitter.getByRole("button", { name: "Request access" }).click();
    await expect(submitter.getByRole("status").textContent()).resolves.toBe(
      "Your request was sent to the administrators.",
    );
    await expect(submitter.getByText("waits for an administrator").isVisible()).resolves.toBe(true);

    // The first administrator is made as `cricket admin promote` makes one; then signs in by name too.
    await bootstrapAdmin(a.world.store, "chief", { now: new Date() });
    await a.world.catchUp();
    const admin = await signedIn("chief");
    const request = admin.getByRole("row", { name: /sunil/ });
    await expect(request.textContent()).resolves.toMatch(/Indian Premier League/);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SCREENSHOTS, "account-admin.png"), fullPage: true });
    await admin.getByRole("button", { name: "Approve sunil" }).click();
    await expect(admin.getByRole("status").textContent()).resolves.toBe("The request was approved.");
    await expect(admin.getByText("No request waits for a decision.").isVisible()).resolves.toBe(true);

    await submitter.reload();
    await expect(submitter.getByText("Signed in as submitter for Indian Premier League").isVisible()).resolves.toBe(
      true,
    );
    // The sample match as published but one dot ball, corrected to a four: one item to review.
    const { body } = cricsheetPackage("ipl/980901.json");
    const firstInnings = body.fixtures[0]?.innings[0] as { events: Record<string, unknown>[] };
    const dot = firstInnings.events.find(
      (e) => (e.runs as { total: number }).total === 0 && (e.wickets as unknown[]).length === 0,
    ) as Record<string, unknown> & { eventId: string };
    const correction = {
      ...dot,
      eventId: randomUUID(),
      operation: "correction",
      correctsEventId: dot.eventId,
      runs: { offBat: 4, extras: 0, total: 4 },
    };
    // A package sends a delivery or its correction, not both.
    firstInnings.events = firstInnings.events.map((e) => (e === dot ? correction : e));
    // Checked in the browser before sending: the first 50 problems listed, the rest counted.
    const check = submitter.locator("#package-check");
    const broken = structuredClone(body);
    for (const event of broken.fixtures[0]?.innings[0]?.events ?? []) {
      delete (event as { striker?: unknown }).striker;
      (event as { overNumber: unknown }).overNumber = -1;
    }
    const problems = 2 * (broken.fixtures[0]?.innings[0]?.events.length ?? 0);
    await submitter.getByLabel("Package file").setInputFiles({
      name: "broken.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(broken)),
    });
    await expect.poll(() => check.locator("li").count()).toBe(50);
    await expect(check.locator("p").first().textContent()).resolves.toBe(
      `broken.json: ${problems} problems before sending.`,
    );
    await expect(check.locator("li").first().textContent()).resolves.toBe(
      'fixtures.0.innings.0.events.0: Instance does not have required property "striker".',
    );
    await expect(check.locator("p").last().textContent()).resolves.toBe(`And ${problems - 50} more.`);
    expect(await seriousViolations(submitter)).toEqual([]);
    await submitter.screenshot({ path: path.join(SCREENSHOTS, "package-check.png"), fullPage: true });
    await submitter.getByLabel("Package file").setInputFiles({
      name: "package.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(body)),
    });
    await expect
      .poll(() => check.textContent())
      .toBe("package.json: its structure is as the contract says. Sending it checks the rest.");
    await submitter.getByRole("button", { name: "Send" }).click();
    await expect(submitter.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`Batch ${body.packageId}`);
    // The page reloads itself until validation is done, then shows the outcome the API reports.
    const status = submitter.locator("#batch-status");
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Status: /);
    const reference = submitter.url().split("/").pop() as string;
    const batch = (await findBatch(a.db.sql, reference)) as BatchView;
    const { counts } = batch;
    await expect(status.textContent()).resolves.toBe(
      `Status: ${batch.status.replace("_", " ")}. ${counts.accepted} accepted, ${counts.rejected} rejected, ${counts.unresolved} unresolved, ${counts.duplicate} duplicate, ${counts.conflicting} conflicting.`,
    );
    // Every delivery of the sample match is published already: each item is a duplicate but the correction.
    const items = body.fixtures[0]?.innings.flatMap((i) => i.events).length as number;
    expect(counts).toMatchObject({ accepted: 1, duplicate: items - 1 });
    const table = submitter.locator("table", { has: submitter.locator("caption", { hasText: "items" }) });
    await expect(table.locator("caption").textContent()).resolves.toBe(
      "The first 200 items (numbered as the report numbers them, from 0)",
    );
    expect(await table.locator("tbody tr").count()).toBe(Math.min(200, items));
    // Its sender sees where review stands, and no form to decide it.
    await expect(submitter.locator("#review-state").textContent()).resolves.toBe(
      "Of 1 accepted items: 0 approved, 0 rejected, 1 undecided.",
    );
    expect(await submitter.getByRole("button", { name: "Record the decision" }).count()).toBe(0);
    expect(await seriousViolations(submitter)).toEqual([]);
    await submitter.screenshot({ path: path.join(SCREENSHOTS, "batch-report.png"), fullPage: true });

    // An administrator who did not send it approves it and publishes: the ledger holds the four.
    await admin.goto(`${local.base}/account`);
    await admin.getByRole("link", { name: body.packageId }).click();
    await admin.getByLabel("Why (recorded with each item and with what is published)").fill("Checked the scorebook");
    await admin.getByRole("button", { name: "Record the decision" }).click();
    await expect(admin.getByRole("status").textContent()).resolves.toBe("The decision is recorded.");
    await admin.getByRole("button", { name: "Publish the 1 approved" }).click();
    await expect(admin.getByRole("status").textContent()).resolves.toBe(
      "Published: the approved items are in the ledger.",
    );
    await expect(admin.locator("#review-state").textContent()).resolves.toMatch(/: 1 in the ledger, 0 refused\.$/);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SCREENSHOTS, "batch-published.png"), fullPage: true });
    const corrected = (await (
      await fetch(`${base}/api/v1/fixtures/${cricsheetIds.fixture("980901")}/events/${dot.eventId}`)
    ).json()) as {
      data: { runs: { offBat: number }; revision: number };
    };
    expect(corrected.data).toMatchObject({ runs: { offBat: 4 }, revision: 2 });
    // The published item links the delivery's history: who changed what, when and why.
    await admin.getByRole("link", { name: "published" }).click();
    await expect(admin.getByRole("heading", { level: 1 }).textContent()).resolves.toMatch(/ history$/);
    const change = admin.locator("tbody tr").first();
    await expect(change.textContent()).resolves.toContain("Checked the scorebook");
    await expect(change.textContent()).resolves.toContain(
      'runs: {"offBat":0,"extras":0,"total":0} → {"offBat":4,"extras":0,"total":4}',
    );
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SCREENSHOTS, "delivery-history.png"), fullPage: true });
    await submitter.context().close();
    await admin.context().close();
  });

  it("lets an administrator manage users, issue a key and see it used, and publish a release", async () => {
    await bootstrapAdmin(a.world.store, "ada", { now: new Date() });
    await a.world.catchUp();
    const admin = await signedIn("ada");
    await admin.getByRole("link", { name: "Users" }).click();
    await expect(admin.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Users");
    await expect(admin.getByRole("row", { name: /^ada administrator/ }).count()).resolves.toBe(1);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SCREENSHOTS, "users.png"), fullPage: true });

    await admin.goto(`${local.base}/account/api-consumers`);
    await admin.getByLabel("Name").fill("Scorebook app");
    await admin.getByLabel("Requests a minute").fill("30");
    await admin.getByRole("button", { name: "Issue" }).click();
    const key = await admin.getByLabel("The key").inputValue();
    expect(key).toMatch(/^ck_/);
    expect(await seriousViolations(admin)).toEqual([]);
    for (const target of ["/api/v1/seasons", "/api/v1/seasons", "/api/v1/fixtures/no-such-fixture"])
      await fetch(`${local.base}${target}`, { headers: { "X-API-Key": key } });
    await admin.getByRole("link", { name: "API consumers" }).click();
    // Waits for the page the click opens (isVisible does not wait); throws when it never shows.
    await admin
      .getByText(/Scorebook app: 30 requests a minute|30 requests a minute/)
      .first()
      .waitFor();
    await admin.getByRole("link", { name: "Its usage" }).click();
    const chart = admin.locator("#usage-title");
    await expect(chart.textContent()).resolves.toMatch(/: 3 in all, 2 2xx, 1 4xx\.$/);
    await expect(admin.getByRole("row", { name: /GET \/api\/v1\/seasons/ }).textContent()).resolves.toMatch(/2\s*0$/);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SCREENSHOTS, "consumer-usage.png"), fullPage: true });

    await admin.goto(`${local.base}/account/releases`);
    await admin.getByLabel(/^Version/).fill("7.0.0");
    await admin.getByRole("button", { name: "Publish" }).click();
    await expect(admin.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Release 7.0.0");
    await expect(admin.locator("#job-status").textContent()).resolves.toMatch(/^Queued/);
    // It reloads itself until the job is done, and the reader can stop that (WCAG 2.2.1).
    await admin.getByRole("link", { name: "Stop reloading" }).click();
    expect(await admin.locator("meta[http-equiv=refresh]").count()).toBe(0);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.getByRole("link", { name: "reload until it is done" }).click();
    expect(await admin.locator("meta[http-equiv=refresh]").count()).toBe(1);
    // A generator publishes it; the page, reloading itself, says so.
    await releaseGenerator(a.db, a.world).drain();
    await expect.poll(() => admin.locator("#job-status").textContent(), { timeout: 15_000 }).toBe("Published.");
    await admin.screenshot({ path: path.join(SCREENSHOTS, "release-job.png"), fullPage: true });
    await admin.context().close();
  });
});
