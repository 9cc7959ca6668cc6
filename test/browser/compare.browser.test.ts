import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Browser, Page } from "playwright-core";
import { describeWithBrowser, launchBrowser, openPage, recordProblems, servedGql } from "../support/browser";
import { ServeProcess, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { patient } from "../support/patience";
import { classificationSample, finished, providersFile, waitForRun } from "../support/runs";
import { TestServer } from "../support/server";

/** Two simulated models, one memorizing much more, compared in the dashboard (headless Chromium). */
describeWithBrowser("comparing models in the dashboard", () => {
  let dir: string;
  let env: Record<string, string>;
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let api: TestServer;
  const experiments: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-compare-"));
    fs.chmodSync(dir, 0o755);
    const simulation = (high: number, seed: number) => ({
      type: "simulated",
      simulation: { memorizedAtZeroShot: 0.1, memorizedAtManyShots: high, halfRiseShots: 2, seed },
    });
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      MEMICL_PROVIDERS_FILE: providersFile({ strong: simulation(0.95, 1), weak: simulation(0.15, 2) }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    };
    serve = await startServe(env);
    api = servedGql(serve.url) as TestServer;
    const sampleId = await classificationSample(api, "compared", {
      rows: 120,
      instances: 30,
      demonstrations: 5,
      shots: [0, 5],
    });
    for (const provider of ["strong", "weak"]) {
      const started = await api.gql(
        `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
        {
          input: {
            name: `${provider} run`,
            sampleIds: [sampleId],
            kinds: ["MEMORIZATION"],
            settings: ["FULL_INFORMATION", "ONLY_SEGMENT_PAIRS"],
            provider,
            model: `${provider}-model`,
          },
        },
      );
      for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
      experiments.push(started.data!.startExperiment.experiment.id);
    }
    browser = await launchBrowser();
    page = await openPage(browser, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    recordProblems(page, problems);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    if (env) await discardDataFolder(env.MEMICL_DATA_DIR);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it("picks two experiments, draws both models as series, and pairs them in a table", async () => {
    await page.goto(`${serve.url}/`);
    for (const id of experiments)
      await page.locator(`tr[data-experiment="${id}"] input.compare-pick`).check();
    await page.locator("a.compare-link").click();
    const figure = page.locator(`figure[data-figure="compare-memorization"]`);
    await figure
      .locator("svg")
      .first()
      .waitFor({ timeout: patient(30_000) });
    const screenshots = process.env.MEMICL_SCREENSHOTS;
    if (screenshots) await page.screenshot({ path: path.join(screenshots, "compare.png"), fullPage: true });
    // 2 models x 2 settings x 2 k.
    expect(await figure.locator("g.point > *").count()).toBe(8);
    const labels = await figure.locator("g.series-label text").allTextContents();
    expect(new Set(labels)).toEqual(new Set(["strong/strong-model", "weak/weak-model"]));
    // The paired tests: 2 settings x 2 k x 2 measures of memorization.
    const rows = page.locator(`figure[data-figure="compare-tests"] tbody tr`);
    expect(await rows.count()).toBe(8);
    // The exported SVG says what it shows: the dataset, the measure and both models.
    const download = page.waitForEvent("download");
    await figure.locator("button", { hasText: "SVG" }).click();
    const svg = fs.readFileSync((await (await download).path())!, "utf8");
    expect(svg).toContain("compared: memorization (exact or near-exact) by model");
    expect(svg).toContain("strong/strong-model");
    expect(svg).toContain("weak/weak-model");
    expect(svg).toContain("evenly spaced");
  }, 60_000);
});
