import os from "node:os";
import { providersFile as writeProvidersFile } from "../test/support/runs";
import { rteSample } from "./grid.bench";
import { benchDatabase, Memicl, startMemicl, startStandIn, waitForExperiment } from "./processes";

/**
 * A run against a provider that enforces requests and tokens per minute (429 beyond either, over a rolling
 * minute, tokens counted as the provider would: the prompt's tokens plus max_tokens), the same limits configured
 * in memicl: how close to the allowed rate memicl runs, with no call failed and no retry. The workload is an RTE
 * sample at k = 0, 5 and 25 (prompts of about 100 to 2,000 tokens), so both limits come into play.
 */
export async function benchLimits(args: string[]) {
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : fallback;
  };
  const rpm = Number(option("--rpm", "600"));
  const tpm = Number(option("--tpm", "300000"));
  const instances = Number(option("--instances", "60"));
  const backend = option("--backend", "postgres") as "postgres" | "embedded";
  const adminUrl = option(
    "--pg",
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  );
  const db = await benchDatabase(backend, adminUrl);
  const standIn = await startStandIn(20, rpm, undefined, ["--tpm", String(tpm)]);
  const providersFile = writeProvidersFile({
    limited: {
      type: "openai",
      baseUrl: standIn.url,
      maxConcurrency: 32,
      timeoutSeconds: 60,
      requestsPerMinute: rpm,
      tokensPerMinute: tpm,
    },
  });
  let memicl: Memicl | null = null;
  try {
    memicl = await startMemicl({ env: db.env, providersFile, inProcessWorkers: 32 });
    const env = { ...db.env, MEMICL_PROVIDERS_FILE: providersFile };
    const sampleId = await rteSample(memicl, env, {
      instanceCount: instances,
      demonstrationCount: 25,
      shotCounts: [0, 5, 25],
    });
    const started = performance.now();
    const { startExperiment } = await memicl.gql(
      `mutation($input: StartExperimentInput!) { startExperiment(input: $input) { experiment { id } } }`,
      {
        input: {
          name: "limits",
          sampleIds: [sampleId],
          provider: "limited",
          model: "bench",
          performanceRepeats: 3,
          cache: false,
        },
      },
    );
    const progress = await waitForExperiment(memicl, startExperiment.experiment.id, 1_000);
    const wall = (performance.now() - started) / 1000;
    const stats = (await (await fetch(`${standIn.url}/stats`)).json()) as {
      answered: number;
      rateLimited: number;
      tokenLimited: number;
      tokensAccepted: number;
      firstServedAt: number;
      lastServedAt: number;
    };
    const metrics = await (await fetch(memicl.url.replace(/\/graphql$/, "/metrics"))).text();
    const retries = [...metrics.matchAll(/^memicl_provider_retries_total\{[^}]*\} (\d+)/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
    // The provider's clock: from its first accepted call to its last.
    const seconds = (stats.lastServedAt - stats.firstServedAt) / 1000;
    const requestShare = stats.answered / ((rpm * seconds) / 60);
    const tokenShare = stats.tokensAccepted / ((tpm * seconds) / 60);
    console.log(
      `node ${process.version}, ${os.cpus().length} cores, ${new Date().toISOString().slice(0, 10)}; ${backend}; ` +
        `stand-in enforcing ${rpm} requests/min and ${tpm} tokens/min (rolling minute, 429 beyond), the same limits in memicl\n`,
    );
    console.log(
      "| calls | failed | 429s (tokens) | retries | s at the provider | wall s | requests/min | of the request limit | tokens/min | of the token limit |",
    );
    console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    console.log(
      `| ${progress.done} | ${progress.failed} | ${stats.rateLimited} (${stats.tokenLimited}) | ${retries} | ${seconds.toFixed(1)} | ${wall.toFixed(1)} | ` +
        `${((stats.answered * 60) / seconds).toFixed(0)} | ${(requestShare * 100).toFixed(1)}% | ` +
        `${((stats.tokensAccepted * 60) / seconds).toFixed(0)} | ${(tokenShare * 100).toFixed(1)}% |`,
    );
    console.log(
      `\nthe binding limit used: ${(Math.max(requestShare, tokenShare) * 100).toFixed(1)}% (target >= 95%, 0 failed, 0 retries)`,
    );
  } finally {
    await memicl?.stop();
    await standIn.stop();
    await db.drop();
  }
}
