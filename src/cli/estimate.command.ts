import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { parseMethods } from "../study/methods";
import { MemorizationSetting, RunKind } from "../study/settings";
import { estimateGrid } from "../template/prompt.service";
import { openReadOnly } from "./open-database";

/** `memicl estimate`: calls, tokens and a cost bound for the grid of some samples. */
export async function runEstimate(
  config: Config,
  options: {
    sample: string[];
    shots?: number[];
    repeats: number;
    inputPrice?: number;
    outputPrice?: number;
    provider?: string;
    methods?: string[];
  },
): Promise<void> {
  // An estimate reads: it never migrates, and reads a provider's prices from the configuration (no client).
  const command = await openReadOnly(config);
  const { services } = command;
  try {
    const provider = options.provider ? (config.providers[options.provider] ?? null) : null;
    if (options.provider && !provider)
      throw new BadInputError(
        `no provider named "${options.provider}" (configured: ${Object.keys(config.providers).join(", ")})`,
        { field: "provider" },
      );
    const estimate = await estimateGrid(
      services.prompts,
      services.samples,
      {
        sampleIds: options.sample,
        kinds: [RunKind.MEMORIZATION, RunKind.PERFORMANCE],
        settings: Object.values(MemorizationSetting),
        shots: options.shots,
        performanceRepeats: options.repeats,
        memorizationMaxOutputTokens: 100,
        performanceMaxOutputTokens: 10,
        methods: options.methods ? parseMethods(options.methods) : undefined,
        inputPricePerMillionTokens: options.inputPrice,
        outputPricePerMillionTokens: options.outputPrice,
      },
      provider,
      undefined,
      services.optionSets,
    );
    const out = process.stdout;
    out.write("sample\tkind\tsetting\tk\tcalls\tprompt_tokens\tmax_output_tokens\n");
    for (const row of estimate.rows) {
      out.write(
        `${row.sample.id}\t${row.kind}\t${row.setting ?? row.quizPosition ?? "-"}\t${row.shots}\t${row.calls}\t${row.promptTokens}\t${row.maxOutputTokens}\n`,
      );
    }
    out.write(
      `total: ${estimate.calls} calls` +
        (estimate.maxCalls > estimate.calls
          ? ` (at most ${estimate.maxCalls} with option regenerations)`
          : "") +
        `, ${estimate.promptTokens} prompt tokens, at most ${estimate.maxOutputTokens} output tokens`,
    );
    out.write(
      estimate.maxCostUsd === null
        ? " (pass --input-price and --output-price for a cost bound)\n"
        : `, at most $${estimate.maxCostUsd.toFixed(2)}\n`,
    );
    out.write(`${estimate.note}\n`);
    for (const warning of estimate.warnings) out.write(`warning: ${warning}\n`);
  } finally {
    await command.close();
  }
}
