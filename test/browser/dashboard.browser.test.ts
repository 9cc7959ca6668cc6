import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Browser, Page } from "playwright-core";
import { describeWithBrowser, launchBrowser, openPage, recordProblems, servedGql } from "../support/browser";
import { ServeProcess, startServe } from "../support/cli";
import { discardDataFolder } from "../support/data-folders";
import { patient } from "../support/patience";
import { classificationSample, providersFile } from "../support/runs";
import { TestServer } from "../support/server";

/**
 * The dashboard in headless Chromium against a real `memicl serve` (embedded database) with a simulated
 * experiment running. Set MEMICL_SCREENSHOTS=<folder> to keep a screenshot of each page.
 */
describeWithBrowser("the dashboard in a browser", () => {
  let dir: string;
  let env: Record<string, string>;
  let serve: ServeProcess;
  let browser: Browser;
  let page: Page;
  let api: Pick<TestServer, "gql">;
  let sampleId: string;
  let experimentId: string;
  const problems: string[] = [];
  const screenshots = process.env.MEMICL_SCREENSHOTS;

  const shoot = async (name: string) => {
    if (screenshots) await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-dashboard-"));
    fs.chmodSync(dir, 0o755);
    env = {
      MEMICL_DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: "",
      // Slow enough that progress is seen moving: 300 calls, 4 at a time, 80 ms each.
      MEMICL_PROVIDERS_FILE: providersFile({
        sim: {
          type: "simulated",
          // Priced for one model only, for the budget's test.
          prices: { priced: { inputPerMillion: 100, outputPerMillion: 200 } },
          simulation: {
            latencyMs: 80,
            memorizedAtZeroShot: 0.3,
            memorizedAtManyShots: 0.8,
            halfRiseShots: 3,
          },
        },
      }),
      MEMICL_IN_PROCESS_WORKERS: "4",
    };
    serve = await startServe(env);
    api = servedGql(serve.url);
    sampleId = await classificationSample(api as TestServer, "browsed", {
      rows: 120,
      instances: 30,
      demonstrations: 10,
      shots: [0, 5],
    });
    browser = await launchBrowser();
    page = await openPage(browser, { viewport: { width: 1280, height: 800 } });
    recordProblems(page, problems);
    page.on("response", async (response) => {
      if (response.status() >= 400)
        problems.push(
          `HTTP ${response.status()} ${response.url()} ${response.request().postData()?.slice(0, 300)} -> ${(await response.text().catch(() => "")).slice(0, 300)}`,
        );
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    if (env) await discardDataFolder(env.MEMICL_DATA_DIR);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    // No page may log an error or throw.
    expect(problems.splice(0)).toEqual([]);
  });

  it("shows the experiments page, and an experiment's progress advancing live to completion", async () => {
    await page.goto(`${serve.url}/`);
    await page.getByText("No experiments yet").waitFor();
    await shoot("empty");
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } } }`,
      {
        input: { name: "live", sampleIds: [sampleId], provider: "sim", model: "demo", performanceRepeats: 2 },
      },
    );
    expect(started.errors).toBeUndefined();
    experimentId = started.data!.startExperiment.experiment.id;
    // The new experiment appears without a reload, and its bar moves: record every count the page shows.
    const counts = page.locator(`tr[data-experiment="${experimentId}"] .counts`);
    await counts.waitFor({ timeout: patient(30_000) });
    const expected = Number(await counts.getAttribute("data-expected"));
    expect(expected).toBe(30 * 4 * 2 + 30 * 2 * 2); // 4 settings (the control too) x 2 k, and performance
    const seen = new Set<number>();
    const deadline = Date.now() + 90_000;
    for (;;) {
      const done = Number(await counts.getAttribute("data-done"));
      seen.add(done);
      if (done === expected || Date.now() > deadline) break;
      if (seen.size === 2) await shoot("experiments");
      await page.waitForTimeout(100);
    }
    expect(Math.max(...seen)).toBe(expected);
    // Seen part way: at least one count strictly between nothing and everything.
    expect([...seen].some((done) => done > 0 && done < expected)).toBe(true);
    await page.locator(`tr[data-experiment="${experimentId}"] .status`, { hasText: "SUCCEEDED" }).waitFor();
  }, 120_000);

  it("draws the study's figures with one point per row of the report", async () => {
    await page.goto(`${serve.url}/#/experiments/${experimentId}`);
    await page
      .locator(`figure[data-figure="memorization"] svg`)
      .first()
      .waitFor({ timeout: patient(30_000) });
    const report = await api.gql(
      `query($id: ID!) { studyReport(experimentId: $id) { computedAt
        memorization { dataset rate } memorizationExactOnly { dataset rate }
        performance { dataset meanAccuracy } memorizedVsNotMemorized { memorized { accuracy } notMemorized { accuracy } }
        transitionRates { dataset } correlations { dataset } } }`,
      { id: experimentId },
    );
    const r = report.data!.studyReport;
    // The page says which state of the results it shows: the report's computedAt, as the API serves it.
    expect(await page.locator("[data-computed-at]").getAttribute("data-computed-at")).toBe(r.computedAt);
    const rated = (rows: any[]) => rows.filter((row) => row.rate !== null).length;
    const points = (figure: string) => page.locator(`figure[data-figure="${figure}"] g.point > *`).count();
    expect(await points("memorization")).toBe(rated(r.memorization) + rated(r.memorizationExactOnly));
    expect(await points("memorization")).toBe(16);
    expect(await points("performance")).toBe(r.performance.length);
    const groups = r.memorizedVsNotMemorized.flatMap((row: any) =>
      [row.memorized.accuracy, row.notMemorized.accuracy].filter((accuracy) => accuracy !== null),
    );
    expect(await points("memorized-vs-not")).toBe(groups.length);
    expect(await points("transitions")).toBe(r.transitionRates.length);
    expect(await page.locator(`figure[data-figure="correlations"] tbody tr`).count()).toBe(
      r.correlations.length,
    );
    // The page opens with the decision: the verdict with its error rate, minimum detectable rate and floor,
    // above the figures; the runs, all succeeded, are folded below them.
    const verdict = page.locator(`table.decisions tr[data-decision="replication"]`);
    await verdict.waitFor();
    expect(await verdict.getAttribute("data-verdict")).toMatch(/^(CONTAMINATED|NO_EVIDENCE|CANNOT_TELL)$/);
    expect(await verdict.locator("td[data-error-rate]").getAttribute("data-error-rate")).toBe("0.05");
    expect(await verdict.locator("td[data-floor]").getAttribute("data-floor")).not.toBe("");
    expect(await verdict.locator("td[data-mdr]").count()).toBe(1);
    const top = async (selector: string) => (await page.locator(selector).first().boundingBox())!.y;
    const runsFolded = page.locator("details.runs");
    const above = {
      figuresAfter: (await top("table.decisions")) < (await top("figure[data-figure]")),
      runsAfter: (await top("figure[data-figure]")) < (await top("details.runs")),
      open: (await runsFolded.getAttribute("open")) !== null,
    };
    expect(above).toEqual({ figuresAfter: true, runsAfter: true, open: false });
    // Each run's bar shows it finished; each figure offers its downloads.
    const runs = page.locator("tr[data-run] .counts");
    expect(await runs.count()).toBe(10);
    for (const counts of await runs.all())
      expect(await counts.getAttribute("data-done")).toBe(await counts.getAttribute("data-expected"));
    const download = page.waitForEvent("download");
    await page.locator(`figure[data-figure="memorization"] button`, { hasText: "Data (CSV)" }).click();
    const csv = fs
      .readFileSync((await (await download).path())!, "utf8")
      .trim()
      .split("\n");
    expect(csv).toHaveLength(17);
    expect(csv[0]).toContain("rate");
    const svgDownload = page.waitForEvent("download");
    await page.locator(`figure[data-figure="memorization"] button`, { hasText: "SVG" }).click();
    const svg = fs.readFileSync((await (await svgDownload).path())!, "utf8");
    expect(svg).toMatch(/^<svg[^>]+xmlns=/);
    // The exported file says what it shows: its title and dataset, and the legend of its colours.
    expect(svg).toContain("Memorization rate vs k: ");
    expect(svg).toMatch(/<text[^>]*>Setting 1: [^<]+<\/text>/);
    await shoot("figures");
  }, 60_000);

  it("records a review with a key, and the agreement and the report change", async () => {
    const totals = async () => {
      const response = await api.gql(
        `query($id: ID!) { studyReport(experimentId: $id) { memorization { exact nearExact } } }`,
        {
          id: experimentId,
        },
      );
      return response.data!.studyReport.memorization.reduce(
        (sum: any, row: any) => ({ exact: sum.exact + row.exact, nearExact: sum.nearExact + row.nearExact }),
        { exact: 0, nearExact: 0 },
      );
    };
    const before = await totals();
    expect(before.nearExact).toBeGreaterThan(0);
    await page.goto(`${serve.url}/#/review/${experimentId}`);
    const agreementN = page.locator(`.agreement`);
    await agreementN.waitFor();
    expect(await agreementN.getAttribute("data-n")).toBe("0");
    const item = page.locator(".review");
    await item.waitFor();
    const first = await item.getAttribute("data-completion");
    // The reference and the answer, with the differences marked.
    expect(await page.locator(".review .diff").count()).toBe(1);
    await shoot("review");
    // Without API keys, the page asks who reviews before it records anything.
    await page.keyboard.press("e");
    await page.getByText("Enter your name as the reviewer first").waitFor();
    expect(await agreementN.getAttribute("data-n")).toBe("0");
    await page.getByPlaceholder("your name").fill("ana");
    await page.locator(".note textarea").fill("checked by the browser test");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("e");
    await page.locator(`.agreement[data-n="1"]`).waitFor({ timeout: patient(15_000) });
    await page.locator(`.review:not([data-completion="${first}"])`).waitFor();
    const after = await totals();
    expect(after).toEqual({ exact: before.exact + 1, nearExact: before.nearExact - 1 });
    const judged = await api.gql(
      `query($id: ID!) { experiment(id: $id) { runs { completions(first: 500) { edges { node { id effectiveJudgment { verdict judgeKind note } } } } } } }`,
      { id: experimentId },
    );
    const reviewed = judged
      .data!.experiment.runs.flatMap((run: any) => run.completions.edges)
      .find((edge: any) => edge.node.id === first).node.effectiveJudgment;
    expect(reviewed).toEqual({ verdict: "EXACT", judgeKind: "HUMAN", note: "checked by the browser test" });
  }, 60_000);

  it("shows the agreement between two reviewers of the same completion", async () => {
    await page.goto(`${serve.url}/#/review/${experimentId}`);
    await page.locator(".reviewer-agreement").waitFor();
    await page.locator(".toolbar select").first().selectOption("SAMPLE");
    const item = page.locator('.review[data-reason="SAMPLE"]');
    await item.waitFor();
    expect(await page.locator(".review .reason").textContent()).toBe("a random sample");
    const first = await item.getAttribute("data-completion");
    await page.getByPlaceholder("your name").fill("ana");
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("e");
    await page.locator(`.review:not([data-completion="${first}"])`).waitFor({ timeout: patient(15_000) });
    // ana's own queue no longer holds it.
    await page.locator(".toolbar select").first().selectOption("UNREVIEWED");
    await page.locator('.review[data-reason="UNREVIEWED"]').waitFor();
    expect(await page.locator(`.review[data-completion="${first}"]`).count()).toBe(0);
    // A second reviewer on the same completion: their own queue still holds it (the sample's order is fixed by its
    // seed).
    await page.reload();
    await page.locator(".reviewer-agreement").waitFor();
    await page.getByPlaceholder("your name").fill("bo");
    await page.locator(".toolbar select").first().selectOption("SAMPLE");
    await page.locator(`.review[data-reason="SAMPLE"][data-completion="${first}"]`).waitFor();
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("e");
    const between = page.locator('.reviewer-agreement[data-statistic="COHEN"]');
    await between.waitFor({ timeout: patient(15_000) });
    expect(Number(await between.getAttribute("data-items"))).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.reviewer-agreement [data-field="reviewers"]').textContent()).toMatch(
      /ana, bo/,
    );
    expect(await page.locator('.reviewer-agreement [data-field="reviewerKappa"]').textContent()).toMatch(
      /^-?\d/,
    );
    // The study report has it too, beside the judge's agreement with the reviewers' majority.
    const response = await api.gql(
      `query($scope: JudgingScope!, $id: ID!) { reviewerAgreement(scope: $scope) { statistic items reviewers kappa }
        studyReport(experimentId: $id) { review { reviewed reviewers { statistic items reviewers kappa } judgeVsHumanN } } }`,
      { scope: { experimentId }, id: experimentId },
    );
    expect(response.data!.reviewerAgreement).toMatchObject({ statistic: "COHEN", reviewers: ["ana", "bo"] });
    const review = response.data!.studyReport.review;
    expect(review.reviewers).toEqual(response.data!.reviewerAgreement);
    expect(review.reviewed).toBeGreaterThanOrEqual(review.reviewers.items);
    expect(review.judgeVsHumanN).toBeGreaterThanOrEqual(1);
    await page.getByPlaceholder("your name").fill("ana");
  }, 60_000);

  it("hides the automatic verdicts in blind mode until the reviewer has decided", async () => {
    await page.goto(`${serve.url}/#/review/${experimentId}`);
    const item = page.locator(".review");
    await item.waitFor();
    // Where the item comes from: its setting, k and label.
    expect(await page.locator(".review .where").textContent()).toMatch(/^Setting \d: .+, k = \d+, label .+/);
    // Blind is the default: nothing of any judge's verdict is on the page before a decision.
    expect(await page.locator(".blind").isChecked()).toBe(true);
    expect(await page.locator(".review .verdicts").count()).toBe(0);
    await page.locator(".blind-note").waitFor();
    const text = (await item.textContent()) ?? "";
    for (const verdict of ["EXACT", "NEAR_EXACT", "INEXACT", "heuristic"])
      expect(text).not.toContain(verdict);
    // Decided: going back shows what the judges said. The key goes back the moment the next item is on the
    // screen, as a quick reviewer's would: keys act on the item shown.
    const first = await item.getAttribute("data-completion");
    // (The page's code, as text: the tests are compiled without the DOM's types.)
    await page.evaluate(`{
      const observer = new MutationObserver(() => {
        const shown = document.querySelector(".review")?.getAttribute("data-completion");
        if (!shown || shown === ${JSON.stringify(first)}) return;
        observer.disconnect();
        window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    }`);
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("i");
    await page
      .locator(`.review[data-completion="${first}"] .verdicts li`)
      .first()
      .waitFor({ timeout: patient(15_000) });
    // The next item is still blind.
    await page.keyboard.press("ArrowRight");
    await page.locator(`.review:not([data-completion="${first}"]) .blind-note`).waitFor();
    expect(await page.locator(".review .verdicts").count()).toBe(0);
    // And blind can be turned off, for review that is not an agreement study.
    await page.locator(".blind").uncheck();
    await page.locator(".review .verdicts li").first().waitFor();
    await page.locator(".blind").check();
  }, 60_000);

  it("cancels and resumes a run from its experiment's page", async () => {
    const started = await api.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } runs { id } } }`,
      {
        input: {
          name: "controlled",
          sampleIds: [sampleId],
          provider: "sim",
          model: "demo-2",
          kinds: ["MEMORIZATION"],
          settings: ["FULL_INFORMATION"],
          shots: [0],
        },
      },
    );
    expect(started.errors).toBeUndefined();
    const { experiment, runs } = started.data!.startExperiment;
    await page.goto(`${serve.url}/#/experiments/${experiment.id}`);
    const row = page.locator(`tr[data-run="${runs[0].id}"]`);
    await row.locator("button", { hasText: "Cancel" }).click();
    await row.locator(".status", { hasText: "CANCELLED" }).waitFor({ timeout: patient(15_000) });
    await row.locator("button", { hasText: "Resume" }).click();
    await row.locator(".status", { hasText: "SUCCEEDED" }).waitFor({ timeout: patient(60_000) });
    expect(await row.locator(".counts").getAttribute("data-done")).toBe("30");
  }, 90_000);

  it("previews a sample's prompts and the grid's estimate", async () => {
    await page.goto(`${serve.url}/#/preview`);
    await page.locator(".prompt .message pre").first().waitFor();
    expect(await page.locator(".prompt .message").count()).toBeGreaterThan(0);
    await page.locator(".estimate").waitFor();
    const estimate = await api.gql(
      `query($id: ID!) { estimateGrid(input: { sampleIds: [$id] }) { calls } }`,
      {
        id: sampleId,
      },
    );
    const calls = estimate.data!.estimateGrid.calls;
    expect(calls).toBe(30 * 4 * 2 + 30 * 3 * 2);
    expect(await page.locator(".estimate dd").first().textContent()).toBe(calls.toLocaleString("en-US"));
    // The card does not ask for prices the providers file has: a priced model chosen below prices the grid.
    await page.locator("form.toolbar input[required]").fill("priced");
    const cost = page.locator(".estimate dd[data-cost]");
    await cost.filter({ hasText: "prices from the providers file" }).waitFor();
    const priced = await api.gql(
      `query($id: ID!) { estimateGrid(input: { sampleIds: [$id], provider: "sim", model: "priced" }) { maxCostUsd } }`,
      { id: sampleId },
    );
    expect(Number(await cost.getAttribute("data-cost"))).toBe(priced.data!.estimateGrid.maxCostUsd);
    await page.locator("form.toolbar input[required]").fill("");
    await shoot("preview");
  }, 60_000);

  it("shows the estimate before starting with a budget, the pause, and resumes when the budget is raised", async () => {
    await page.goto(`${serve.url}/#/preview`);
    await page.locator(".estimate").waitFor();
    await page.locator("form.toolbar input[required]").fill("priced");
    await page.locator('form.toolbar input[name="budget"]').fill("0.05");
    await page.getByRole("button", { name: "Check and start…" }).click();
    const preflight = page.getByRole("dialog", { name: "before it starts" });
    await preflight.waitFor();
    const text = (await preflight.textContent()) ?? "";
    expect(text).toMatch(/This grid makes 420 calls/);
    expect(text).toMatch(/it costs at most \$\d+\.\d\d; budget \$0\.05/);
    // The page's first read of the experiment answers after its live events: the run pauses within moments of its
    // start, so that answer is older than the pause, and the page must not show it over the pause.
    const experimentRead = /query Experiment\(/;
    await page.route("**/graphql", async (route) => {
      if (!experimentRead.test(route.request().postData() ?? "")) return route.fallback();
      const answer = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.fulfill({ response: answer });
    });
    await preflight.getByRole("button", { name: "Start it" }).click();
    await page.waitForURL(/#\/experiments\//);
    await page
      .locator("p.paused", { hasText: "budget: the experiment's budget of $0.05 is reached" })
      .waitFor({
        timeout: patient(30_000),
      });
    await page.locator("[data-budget='0.05']").waitFor();
    await page.unroute("**/graphql");
    await shoot("paused");
    await page.locator('form.budget input[name="budget"]').fill("1000");
    await page.getByRole("button", { name: "Raise and resume" }).click();
    await page.locator("[data-budget='1000']").waitFor({ timeout: patient(15_000) });
    await page.locator("p.paused").waitFor({ state: "detached", timeout: patient(15_000) });
    const id = /#\/experiments\/([0-9a-f-]{36})/.exec(page.url())![1];
    const state = await api.gql(
      `query($id: ID!) { experiment(id: $id) { progress { status maxCostUsd } runs { id } } }`,
      {
        id,
      },
    );
    expect(state.data!.experiment.progress).toMatchObject({ maxCostUsd: 1000 });
    expect(["RUNNING", "SUCCEEDED"]).toContain(state.data!.experiment.progress.status);
    // Nothing else in this file needs the calls: stop them.
    for (const run of state.data!.experiment.runs)
      await api.gql(`mutation($id: ID!) { cancelRun(input: { runId: $id }) { run { id } } }`, { id: run.id });
  }, 90_000);
});
