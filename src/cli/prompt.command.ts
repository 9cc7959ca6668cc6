import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { MemorizationSetting, RunKind, SETTING_NAMES, settingNamed } from "../study/settings";
import { estimateGrid } from "../template/prompt.service";
import { openForCommand } from "./open-database";

export function parseSetting(value: string): MemorizationSetting {
  const setting = settingNamed(value);
  if (!setting) throw new BadInputError(`setting: one of ${SETTING_NAMES.join(", ")}`);
  return setting;
}

export function parseKind(value: string): RunKind {
  const kind = value.toUpperCase();
  if (kind !== RunKind.MEMORIZATION && kind !== RunKind.PERFORMANCE)
    throw new BadInputError("kind: memorization or performance");
  return kind as RunKind;
}

/** `memicl prompt`: prints the exact messages a run would send for one instance. */
export async function runPrompt(
  config: Config,
  options: {
    sample: string;
    kind: string;
    setting?: string;
    shots: number;
    instance?: string;
    templateVersion?: number;
  },
): Promise<void> {
  const kind = parseKind(options.kind);
  const setting = kind === RunKind.MEMORIZATION ? parseSetting(options.setting ?? "full-information") : null;
  const command = await openForCommand(config, { say: process.stderr });
  const { services } = command;
  try {
    const { prepared, item, messages, tokenCount } = await services.prompts.preview(
      {
        sampleId: options.sample,
        kind,
        setting,
        shots: options.shots,
        templateVersion: options.templateVersion,
      },
      options.instance ?? null,
    );
    const out = process.stdout;
    out.write(
      `# ${prepared.template.key} v${prepared.template.version}, k=${options.shots}, instance ${item.instanceId} (position ${item.position}), ${tokenCount} prompt tokens\n`,
    );
    for (const message of messages) out.write(`\n[${message.role}]\n${message.content}\n`);
    if (kind === RunKind.MEMORIZATION) out.write(`\n[expected continuation]\n${item.subsequentSegment}\n`);
  } finally {
    await command.close();
  }
}

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
  },
): Promise<void> {
  const command = await openForCommand(config);
  const { services } = command;
  try {
    const provider = options.provider ? services.providers.config(options.provider) : null;
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
        inputPricePerMillionTokens: options.inputPrice,
        outputPricePerMillionTokens: options.outputPrice,
      },
      provider,
    );
    const out = process.stdout;
    out.write("sample\tkind\tsetting\tk\tcalls\tprompt_tokens\tmax_output_tokens\n");
    for (const row of estimate.rows) {
      out.write(
        `${row.sample.id}\t${row.kind}\t${row.setting ?? "-"}\t${row.shots}\t${row.calls}\t${row.promptTokens}\t${row.maxOutputTokens}\n`,
      );
    }
    out.write(
      `total: ${estimate.calls} calls, ${estimate.promptTokens} prompt tokens, at most ${estimate.maxOutputTokens} output tokens`,
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
