// A stand-in OpenAI-compatible server in its own process, for benchmarks that measure as a user runs memicl:
// `node dist/bench/stand-in-server.js --delay 50 [--rpm 600] [--tpm 300000] [--record FILE]` prints its URL on the first line of
// stdout. `--record` appends every request body to FILE, one per line (the grid's floor replays them).
import fs from "node:fs";
import { countChatTokens } from "../src/llm/tokenizer";
import { ChatMessage } from "../src/study/chat";
import { FakeOpenAiServer } from "../test/support/fake-openai-server";

async function main() {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? Number(args[index + 1]) : null;
  };
  const server = new FakeOpenAiServer();
  server.fallback = { kind: "answer", delayMs: option("--delay") ?? 0 };
  server.requestsPerMinute = option("--rpm");
  server.tokensPerMinute = option("--tpm");
  // Tokens as memicl counts them (o200k), so the limit it enforces is the one memicl's limiter is told.
  if (server.tokensPerMinute !== null)
    server.countPromptTokens = (messages) => countChatTokens(messages as ChatMessage[]);
  // Batch API: `--batch-item-ms` per request while a batch is in progress.
  server.batches.behaviour.itemMs = option("--batch-item-ms") ?? 0;
  server.batches.behaviour.startDelayMs = option("--batch-start-ms") ?? 20;
  // Nothing is kept per request: 24,000 prompts of 200 demonstrations would hold a gigabyte.
  server.keepRequests = false;
  const recordTo = args.includes("--record") ? args[args.indexOf("--record") + 1] : null;
  const record = recordTo ? fs.createWriteStream(recordTo, { flags: "a" }) : null;
  // A JSON body has no raw line break: one line per request.
  if (record) server.onBody = (body) => record.write(`${body}\n`);
  const url = await server.start();
  process.stdout.write(`${url}\n`);
  const stop = () =>
    void server
      .stop()
      .then(() => new Promise((resolve) => (record ? record.end(resolve) : resolve(null))))
      .then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

void main();
