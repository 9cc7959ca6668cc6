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

/** The contamination page: every method's evidence for a sample side by side, from the API (headless Chromium). */
describeWithBrowser("the contamination evidence in the dashboard", () => {
  let dir: string;
  let env: Record<string, string>;
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let api: TestServer;
  let experimentId: string;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-contamination-"));
    fs.chmodSync(dir, 0o755);
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: { type: "simulated", simulation: { memorizedAtZeroShot: 0.4, quizContamination: 0.5, seed: 2 } },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    };
    serve = await startServe(env);
    api = servedGql(serve.url) as TestServer;
    const sampleId = await classificationSample(api, "evidence", {
      rows: 120,
      instances: 30,
      demonstrations: 5,
      shots: [0],
    });
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "every method",
          sampleIds: [sampleId],
          kinds: ["MEMORIZATION"],
          methods: ["GUIDED_GENERAL", "QUIZ", "LOGPROB", "CDD", "NGRAM_COVERAGE", "CODEC", "TS_GUESSING"],
          cdd: { samples: 3 },
          ngramCoverage: { samples: 3 },
          provider: "sim",
          model: "m",
        },
      },
    );
    for (const run of started.data!.startExperiment.runs) await waitForRun(api, run.id, finished, 60_000);
    experimentId = started.data!.startExperiment.experiment.id;
    browser = await launchBrowser();
    page = await openPage(browser, { viewport: { width: 1280, height: 900 } });
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

  it("shows each method's result with its counts and limits, as the API gives them", async () => {
    const { data } = await api.gql(
      `query($id: ID!) { contaminationSummary(experimentId: $id) {
        timeTravel { exact nearExact subsetJudged pool } replication { verdict reason }
        quiz { range { instances lower upper } } } }`,
      { id: experimentId },
    );
    const [summary] = data!.contaminationSummary;
    await page.goto(`${serve.url}/#/experiments/${experimentId}`);
    await page.locator("a", { hasText: "Contamination evidence" }).click();
    const figure = page.locator(`figure[data-dataset="evidence"]`);
    await figure.waitFor({ timeout: patient(30_000) });
    for (const method of [
      "time-travel",
      "replication",
      "guided-general",
      "quiz",
      "logprob",
      "cdd",
      "ngram-coverage",
      "codec",
      "ts-guessing",
    ])
      expect(await figure.locator(`[data-method="${method}"] [data-verdict]`).count()).toBe(1);
    const timeTravel = await figure.locator(`[data-method="time-travel"]`).textContent();
    expect(timeTravel).toContain(
      `${summary.timeTravel.exact} exact, ${summary.timeTravel.nearExact} near-exact of ${summary.timeTravel.subsetJudged} judged`,
    );
    expect(timeTravel).toContain(`(drawn from ${summary.timeTravel.pool} non-trivial)`);
    expect(timeTravel).toContain("not a test");
    // Replication's evidence is the verdict: the decision, and why, as the API gives them.
    const replication = await figure.locator(`[data-method="replication"]`).textContent();
    expect(replication).toContain(
      { CONTAMINATED: "Contaminated", NO_EVIDENCE: "No evidence", CANNOT_TELL: "Cannot tell" }[
        summary.replication.verdict as string
      ]!,
    );
    expect(replication).toContain(summary.replication.reason);
    const quiz = await figure.locator(`[data-method="quiz"]`).textContent();
    expect(quiz).toContain(`n = ${summary.quiz.range.instances} of 30 instances`);
    expect(quiz).toContain(
      `Range [${(summary.quiz.range.lower * 100).toFixed(1)}%, ${(summary.quiz.range.upper * 100).toFixed(1)}%]`,
    );
    expect(quiz).toContain("What it cannot tell");
    // The logprob scores, without a control dataset: scores, no verdict, and what the method cannot see.
    const logprob = await figure.locator(`[data-method="logprob"]`).textContent();
    expect(logprob).toContain("Scores only (no control dataset)");
    expect(logprob).toMatch(/mean scores: loss -?\d/);
    expect(logprob).toContain("(30 texts)");
    expect(logprob).toMatch(/What it cannot tell: .*paraphrase/);
    // The sampling methods, without a control dataset: what they measured, no verdict.
    const cdd = await figure.locator(`[data-method="cdd"]`).textContent();
    expect(cdd).toContain("Share leaked only (no control dataset)");
    expect(cdd).toMatch(/leaked by the authors' rule \(peakedness > 0\.01\): \d+ of 30/);
    const ngram = await figure.locator(`[data-method="ngram-coverage"]`).textContent();
    expect(ngram).toContain("Coverage only (no control dataset)");
    expect(ngram).toMatch(/in runs of 3 words \(30 instances, 3 samples each, guided prompt\)/);
    const codec = await figure.locator(`[data-method="codec"]`).textContent();
    expect(codec).toContain("Share only (no control dataset)");
    expect(codec).toMatch(/confidence drops with context: \d+ of 30 \(/);
    // The sample's texts are made-up tokens: no word to mask, none asked, and the page says so.
    const guessing = await figure.locator(`[data-method="ts-guessing"]`).textContent();
    expect(guessing).toContain("Rate only (no control dataset)");
    expect(guessing).toMatch(/masked words guessed exactly: 0 of 0/);
    expect(guessing).toContain("30 instance(s) not asked or not answered");
    const screenshots = process.env.MEMICL_SCREENSHOTS;
    if (screenshots)
      await page.screenshot({ path: path.join(screenshots, "contamination.png"), fullPage: true });
  }, 60_000);
});
