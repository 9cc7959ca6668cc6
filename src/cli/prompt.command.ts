import { BadInputError } from "../common/errors";
import { Config } from "../config/config";
import { instanceSlot } from "../guessing/masked-slot";
import { MemorizationSetting, RunKind, SETTING_NAMES, settingNamed } from "../study/settings";
import { openReadOnly } from "./open-database";

export function parseSetting(value: string): MemorizationSetting {
  const setting = settingNamed(value);
  if (!setting) throw new BadInputError(`setting: one of ${SETTING_NAMES.join(", ")}`);
  return setting;
}

export function parseKind(value: string): RunKind {
  const kind = value.toUpperCase();
  if (
    kind !== RunKind.MEMORIZATION &&
    kind !== RunKind.PERFORMANCE &&
    kind !== RunKind.CONTINUATION &&
    kind !== RunKind.LOGPROB &&
    kind !== RunKind.GUESSING
  )
    throw new BadInputError("kind: memorization, performance, continuation, logprob or guessing");
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
    inContext?: boolean;
  },
): Promise<void> {
  const kind = parseKind(options.kind);
  // A continuation (the sampling methods') is the guided prompt at k = 0, or the raw first piece (--setting raw).
  const continuation = kind === RunKind.CONTINUATION;
  const setting =
    kind === RunKind.MEMORIZATION || (continuation && options.setting !== "raw")
      ? parseSetting(options.setting ?? "full-information")
      : null;
  if (options.inContext && kind !== RunKind.LOGPROB)
    throw new BadInputError("--in-context: CoDeC's scoring pass, with --kind logprob");
  // The sampling methods' and the scoring methods' prompts have no demonstrations.
  const shots = continuation || kind === RunKind.LOGPROB || kind === RunKind.GUESSING ? 0 : options.shots;
  // Printing a prompt reads: it never migrates (a schema behind this memicl is refused, naming memicl migrate).
  const command = await openReadOnly(config, { say: process.stderr });
  const { services } = command;
  try {
    const { prepared, item, messages, tokenCount } = await services.prompts.preview(
      {
        sampleId: options.sample,
        kind,
        setting,
        shots,
        templateVersion: options.templateVersion,
        inContext: options.inContext ?? false,
      },
      options.instance ?? null,
    );
    const out = process.stdout;
    out.write(
      `# ${prepared.template.key} v${prepared.template.version}, k=${shots}, instance ${item.instanceId} (position ${item.position}), ${tokenCount} prompt tokens\n`,
    );
    for (const message of messages) out.write(`\n[${message.role}]\n${message.content}\n`);
    if (kind === RunKind.MEMORIZATION || continuation)
      out.write(`\n[expected continuation]\n${item.subsequentSegment}\n`);
    if (kind === RunKind.GUESSING) {
      const slot = instanceSlot(
        await services.prompts.instanceTexts([item.instanceId]).then((texts) => texts.get(item.instanceId)!),
      );
      out.write(
        slot
          ? `\n[masked word]\n${slot.word}\n`
          : "\n[masked word]\nnone: no word of this instance can be masked\n",
      );
    }
  } finally {
    await command.close();
  }
}
