// The floor of a benchmark: the bare `openai` client making the same calls memicl made, in its own process.
// `node dist/bench/replay-floor.js --url URL --file BODIES.jsonl [--concurrency 32]` reads the recorded request
// bodies (stand-in-server.ts --record), parses them all before the clock starts, sends them at the same
// concurrency, and prints one JSON line: { calls, failed, seconds }.
import fs from "node:fs";
import readline from "node:readline";
import OpenAI from "openai";

async function main() {
  const args = process.argv.slice(2);
  const option = (name: string, fallback?: string) => {
    const index = args.indexOf(name);
    if (index >= 0) return args[index + 1];
    if (fallback === undefined) throw new Error(`replay-floor: ${name} is required`);
    return fallback;
  };
  const bodies: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming[] = [];
  const lines = readline.createInterface({
    input: fs.createReadStream(option("--file")),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line.trim()) bodies.push(JSON.parse(line));
  const concurrency = Number(option("--concurrency", "32"));
  const client = new OpenAI({ baseURL: option("--url"), apiKey: "unused", maxRetries: 0 });
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        try {
          const response = await client.chat.completions.create(body);
          if (!response.choices[0]?.message) failed += 1;
        } catch {
          failed += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(`${JSON.stringify({ calls: bodies.length, failed, seconds })}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
