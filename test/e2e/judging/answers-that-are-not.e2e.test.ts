import fs from "node:fs";
import http from "node:http";
import { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { healthRoutes } from "../../../src/api/routes/health";
import { Database } from "../../../src/db/database";
import { OpenAiProvider } from "../../../src/llm/openai-provider";
import { loadProviders } from "../../../src/llm/provider-config";
import { JobQueue } from "../../../src/queue/job-queue";

/** A server on a free local port answering every request with `handler`; closed by the returned function. */
async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("answers that are not what was asked for", () => {
  it("says a provider answered with an HTML page, not that its answer had no content", async () => {
    const page = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!DOCTYPE html><html><body>Sign in to continue</body></html>");
    });
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "memicl-html-"));
      const file = path.join(dir, "providers.json");
      fs.writeFileSync(
        file,
        JSON.stringify({ providers: { portal: { type: "openai", baseUrl: `${page.url}/v1` } } }),
      );
      const config = loadProviders(file, {}).portal;
      fs.rmSync(dir, { recursive: true, force: true });
      if (config.type !== "openai") throw new Error("an openai provider was configured");
      const provider = new OpenAiProvider(config);
      await expect(
        provider.complete(
          { model: "m", messages: [{ role: "user", content: "hi" }], temperature: 0, maxOutputTokens: 5 },
          new AbortController().signal,
        ),
      ).rejects.toThrow(/answered with an HTML page, not a chat completion .*Sign in/);
    } finally {
      await page.close();
    }
  });

  it("answers /health with 503 within a bound while the database hangs", async () => {
    const hanging = {
      mode: "server",
      dataSource: { query: () => new Promise(() => {}) },
    } as unknown as Database;
    const app = express();
    app.use(healthRoutes(hanging, {} as JobQueue));
    const server = await serve(app);
    try {
      const response = await fetch(`${server.url}/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: "unavailable", reason: "no answer within 3 s" });
    } finally {
      await server.close();
    }
  }, 30_000);
});
