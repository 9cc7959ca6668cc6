import fs from "node:fs";
import { Browser, BrowserContextOptions, chromium, Page } from "playwright-core";
import { patient } from "./patience";

/** Debian's Chromium (apt-get install chromium), or MEMICL_CHROMIUM; nothing is downloaded. */
export function chromiumPath(): string | null {
  for (const candidate of [process.env.MEMICL_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * `describe` when Chromium is installed. Without it the tests are skipped with a note, except in CI
 * (CI=true), where a missing browser is a failure: .ci/run installs it.
 */
export function describeWithBrowser(name: string, body: () => void): void {
  if (chromiumPath()) {
    describe(name, body);
    return;
  }
  if (process.env.CI === "true") {
    describe(name, () => {
      it("has Chromium to test with", () => {
        throw new Error(
          "Chromium is not installed (apt-get install chromium); CI must run the browser tests",
        );
      });
    });
    return;
  }
  // The note a reader of the test output sees (a skipped describe's name shows only in verbose mode).
  console.warn(
    `${name}: skipped, Chromium is not installed (apt-get install chromium, or set MEMICL_CHROMIUM)`,
  );
  describe.skip(`${name} (skipped: no Chromium; apt-get install chromium)`, body);
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath()!,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
  });
}

/**
 * A page whose waits (Playwright's 30 s by default) grow with the machine's load, as the suite's own deadlines
 * do (test/support/patience.ts): on a busy machine a wait is slower, not a failure.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions): Promise<Page> {
  const page = await browser.newPage(options);
  page.setDefaultTimeout(patient(30_000));
  return page;
}

/** Collects into `problems` what a page logs as an error or throws: a test fails on any (see afterEach). */
export function recordProblems(page: Page, problems: string[]): void {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
}

export { servedGql } from "./cli";
