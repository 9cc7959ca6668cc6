import { DataSource } from "typeorm";
import { BadInputError } from "../common/errors";
import { Dataset, LabelVerbalizer } from "../dataset/dataset.entity";
import { DatasetService } from "../dataset/dataset.service";
import { Instance } from "../dataset/instance.entity";
import { instanceSlot } from "../guessing/masked-slot";
import { countChatTokens, countTextTokens } from "../llm/tokenizer";
import { CODEC_SEPARATOR, contextPositionOf } from "../logprob/codec";
import {
  FramedPrompt,
  PromptContext,
  PromptFrame,
  PromptItem,
  promptFrame,
  renderDemonstrations,
  renderInFrameParts,
  renderPrompt,
} from "../prompt/rendering";
import { templateKey } from "../prompt/template-body";
import { quizInstanceText } from "../quiz/quiz-prompts";
import { Demonstration } from "../sample/demonstration.entity";
import { presentationOrder } from "../sample/design/design-sample";
import { Sample } from "../sample/sample.entity";
import { SampleService } from "../sample/sample.service";
import { SampledInstance } from "../sample/sampled-instance.entity";
import { ChatMessage } from "../study/chat";
import { GridSpec, gridCells, QUIZ_DEFAULTS } from "../study/grid";
import { MemorizationSetting, RunKind } from "../study/settings";
import { PromptTemplate, runBodyOf } from "./prompt-template.entity";
import { TemplateService } from "./template.service";

/** The tokenizer token counts come from (exact for OpenAI's GPT-4o family, an estimate for other models). */
export const TOKENIZER = "o200k_base";

export interface PromptSpec {
  sampleId: string;
  kind: RunKind;
  setting: MemorizationSetting | null;
  shots: number;
  templateVersion?: number | null;
  /** What a run recorded when it started; the dataset's current names otherwise. */
  naming?: PromptNaming;
  /**
   * CoDeC's in-context pass (LOGPROB only): each instance's scored text after another instance's of the same
   * sample (`contextPositionOf`) and a blank line.
   */
  inContext?: boolean;
}

/** How prompts name the dataset and its labels; runs record it so later edits do not change their prompts. */
export interface PromptNaming {
  promptName: string;
  labelVerbalizers: LabelVerbalizer[];
}

type FullText = Pick<Instance, "text" | "secondText">;

/** Everything a run needs to build its prompts: one context and one shared demonstrations block. */
export interface PreparedPrompts {
  sample: Sample;
  dataset: Dataset;
  naming: PromptNaming;
  template: PromptTemplate;
  context: PromptContext;
  /** The k demonstrations in presentation order. */
  demonstrations: Demonstration[];
  demonstrationsBlock: string;
  /** What every prompt of this run shares (for hashing the shared part once). */
  frame: PromptFrame;
  /**
   * The prompt for one instance under test; `instance` is its dataset row (performance prompts show the full text);
   * a quiz's prompt shows `options`.
   */
  render(item: SampledInstance, instance: FullText, options?: readonly string[]): ChatMessage[];
  /** The same prompt with its part after the frame, which the run's hasher hashes without comparing the rest. */
  renderParts(item: SampledInstance, instance: FullText, options?: readonly string[]): FramedPrompt;
  /** The instance as the quiz shows it (and asks perturbations of). */
  original(item: SampledInstance, instance: FullText): string;
}

export class PromptService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly samples: SampleService,
    private readonly datasets: DatasetService,
    private readonly templates: TemplateService,
  ) {}

  async prepare(spec: PromptSpec): Promise<PreparedPrompts> {
    if (spec.kind === RunKind.MEMORIZATION && !spec.setting) {
      throw new BadInputError("a memorization prompt needs a setting", { field: "setting" });
    }
    if (
      spec.kind === RunKind.CONTINUATION &&
      spec.setting &&
      spec.setting !== MemorizationSetting.FULL_INFORMATION
    )
      throw new BadInputError(
        "a continuation prompt is the raw first piece or the guided one (FULL_INFORMATION)",
        {
          field: "setting",
        },
      );
    if (spec.kind !== RunKind.MEMORIZATION && spec.kind !== RunKind.CONTINUATION && spec.setting) {
      throw new BadInputError(`${spec.kind.toLowerCase()} prompts have no setting`, { field: "setting" });
    }
    if (
      (spec.kind === RunKind.QUIZ ||
        spec.kind === RunKind.QUIZ_OPTIONS ||
        spec.kind === RunKind.LOGPROB ||
        spec.kind === RunKind.CONTINUATION ||
        spec.kind === RunKind.GUESSING) &&
      spec.shots !== 0
    ) {
      throw new BadInputError(`${spec.kind.toLowerCase()} prompts have no demonstrations: shots must be 0`, {
        field: "shots",
      });
    }
    if (spec.inContext && spec.kind !== RunKind.LOGPROB)
      throw new BadInputError("only a scoring (logprob) prompt has CoDeC's in-context form", {
        field: "kind",
      });
    const sample = await this.samples.get(spec.sampleId);
    const dataset = await this.datasets.get(sample.datasetId);
    const ranked =
      Number.isInteger(spec.shots) && spec.shots >= 0
        ? await this.samples.demonstrationsByRank(sample.id, spec.shots)
        : [];
    if (!Number.isInteger(spec.shots) || spec.shots < 0 || ranked.length < spec.shots) {
      throw new BadInputError(
        `shots must be between 0 and the sample's number of demonstrations (${ranked.length} found)`,
        {
          field: "shots",
        },
      );
    }
    const template = await this.templates.get(
      templateKey(spec.kind, dataset.taskKind, spec.setting),
      spec.templateVersion,
    );
    const naming = spec.naming ?? {
      promptName: dataset.promptName ?? dataset.name,
      labelVerbalizers: dataset.labelVerbalizers,
    };
    const verbalizers = new Map(naming.labelVerbalizers.map(({ label, verbalizer }) => [label, verbalizer]));
    const toItem = (
      row: { initialSegment: string; subsequentSegment: string; label: string },
      full: FullText,
      options?: readonly string[],
    ): PromptItem => {
      const label = verbalizers.get(row.label) ?? row.label;
      return {
        initialSegment: row.initialSegment,
        subsequentSegment: row.subsequentSegment,
        text: full.text,
        secondText: full.secondText,
        label,
        original: quizInstanceText(dataset.taskKind, { ...full, label }),
        options,
        // TS-Guessing's slot: computed for its prompts only (tagging costs a few milliseconds a text).
        masked: spec.kind === RunKind.GUESSING ? (instanceSlot(full)?.masked ?? undefined) : undefined,
      };
    };
    const ordered = presentationOrder(ranked, spec.shots, sample.seed);
    const fullTexts = await this.instanceTexts(ordered.map((demonstration) => demonstration.instanceId));
    const context: PromptContext = {
      kind: spec.kind,
      template: runBodyOf(template),
      datasetName: naming.promptName,
      split: sample.instanceSplit,
      labels: naming.labelVerbalizers.map(({ verbalizer }) => verbalizer),
      demonstrations: ordered.map((demonstration) =>
        toItem(demonstration, fullTexts.get(demonstration.instanceId)!),
      ),
    };
    const demonstrationsBlock = renderDemonstrations(context);
    const frame = promptFrame(context, demonstrationsBlock);
    const parts = (item: SampledInstance, instance: FullText, options?: readonly string[]) =>
      renderInFrameParts(frame, context, toItem(item, instance, options));
    const contexts = spec.inContext ? await this.contextQueries(sample.id, parts) : null;
    const framed = (item: SampledInstance, instance: FullText, options?: readonly string[]): FramedPrompt => {
      const own = parts(item, instance, options);
      if (!contexts) return own;
      const before = contexts.get(item.position);
      if (before === undefined)
        throw new BadInputError(
          `CoDeC needs another instance in the sample to put in context; sample ${sample.id} has none for ` +
            `position ${item.position}`,
          { field: "sampleIds" },
        );
      const query = before + CODEC_SEPARATOR + (own.query ?? "");
      return {
        messages: [...own.messages.slice(0, -1), { role: "user", content: frame.userPrefix + query }],
        query,
      };
    };
    return {
      sample,
      dataset,
      naming,
      template,
      context,
      demonstrations: ordered,
      demonstrationsBlock,
      frame,
      render: (item, instance, options) => framed(item, instance, options).messages,
      renderParts: framed,
      original: (item, instance) => toItem(item, instance).original!,
    };
  }

  /** The exact messages a run would send for one instance, with their token count; no model is called. */
  async preview(spec: PromptSpec, instanceId: string | null) {
    if (spec.kind === RunKind.QUIZ)
      throw new BadInputError(
        "a quiz prompt shows generated options, which an option set holds: a quiz run's completions carry their " +
          "exact prompts (preview QUIZ_OPTIONS for the prompt that generates them)",
        { field: "kind" },
      );
    const prepared = await this.prepare(spec);
    const item = await this.samples.sampledInstance(spec.sampleId, instanceId);
    const texts = await this.instanceTexts([item.instanceId]);
    const messages = prepared.render(item, texts.get(item.instanceId)!);
    return { prepared, item, messages, tokenCount: countChatTokens(messages) };
  }

  /**
   * CoDeC's contexts: for each position of the sample, the rendered text of the instance that stands before it
   * (`contextPositionOf`: the next one in the sample's order).
   */
  private async contextQueries(
    sampleId: string,
    parts: (item: SampledInstance, instance: FullText) => FramedPrompt,
  ): Promise<Map<number, string>> {
    const items = await this.samples.allSampledInstances(sampleId);
    const texts = await this.instanceTexts(items.map((item) => item.instanceId));
    const byPosition = new Map(items.map((item) => [item.position, item]));
    const positions = items.map((item) => item.position);
    const contexts = new Map<number, string>();
    for (const item of items) {
      const at = contextPositionOf(item.position, positions);
      if (at === null) continue;
      const other = byPosition.get(at)!;
      contexts.set(item.position, parts(other, texts.get(other.instanceId)!).query ?? "");
    }
    return contexts;
  }

  async instanceTexts(ids: string[]): Promise<Map<string, FullText>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; text: string; second_text: string | null }[] = await this.dataSource.query(
      "SELECT id, text, second_text FROM instance WHERE id = ANY($1::bigint[])",
      [ids],
    );
    return new Map(rows.map((row) => [String(row.id), { text: row.text, secondText: row.second_text }]));
  }

  /**
   * Prompt tokens of every prompt of one run, summed. The shared part (instruction, demonstrations, chat
   * framing) is tokenized once and each instance's slot on its own, so a prompt's count can be off by a
   * token or two where the two meet.
   */
  async estimateRunTokens(spec: PromptSpec): Promise<{
    prepared: PreparedPrompts;
    prompts: number;
    promptTokens: number;
    largestPromptTokens: number;
  }> {
    const prepared = await this.prepare(spec);
    const items = await this.samples.allSampledInstances(spec.sampleId);
    const texts = await this.instanceTexts(items.map((item) => item.instanceId));
    const withoutSlot = { ...prepared.context, template: { ...prepared.context.template, query: "" } };
    const sharedMessages = renderPrompt(withoutSlot, emptyItem(), prepared.demonstrationsBlock);
    const shared = countChatTokens(sharedMessages);
    // What every user message starts with (an instruction placed there, then the demonstrations).
    const sharedPrefix = sharedMessages[sharedMessages.length - 1].content;
    let promptTokens = 0;
    let largestPromptTokens = 0;
    for (const item of items) {
      const text = texts.get(item.instanceId)!;
      // A quiz's options are not known before they are generated: four perturbations are about as long as the
      // original, which stands in for them.
      const options =
        spec.kind === RunKind.QUIZ ? Array<string>(4).fill(prepared.original(item, text)) : undefined;
      const messages = prepared.render(item, text, options);
      const slot = messages[messages.length - 1].content.slice(sharedPrefix.length);
      const tokens = shared + countTextTokens(slot);
      promptTokens += tokens;
      largestPromptTokens = Math.max(largestPromptTokens, tokens);
    }
    return { prepared, prompts: items.length, promptTokens, largestPromptTokens };
  }
}

function emptyItem(): PromptItem {
  return { initialSegment: "", subsequentSegment: "", text: "", secondText: null, label: "" };
}

/** Prompts an estimate renders when no budget is given (the CLI): the paper's grid of four datasets is 16,000. */
export const MAX_ESTIMATE_RENDERS = 100_000;

/** What one request may still render, shared by every estimate it asks for (aliases included). */
export interface RenderBudget {
  remaining: number;
}

export interface GridEstimateRequest extends GridSpec {
  sampleIds: string[];
  /** The QUIZ method: generations an instance's options may take. */
  quizOptionGenerations?: number;
  /** The QUIZ method: the options' generator, when one is named (else a sample's existing set is taken). */
  quizGenerator?: { provider: string; model: string; generations: number };
  inputPricePerMillionTokens?: number;
  outputPricePerMillionTokens?: number;
}

/** The limits of the provider a grid would run on, for warnings about prompts it can never send. */
export interface GridEstimateProvider {
  name: string;
  tokensPerMinute: number | null;
}

/** Which samples' quizzes would take an option set already made (OptionSetService.reusedBy). */
export interface OptionSetReuse {
  reusedBy(
    sampleIds: readonly string[],
    templateVersion: number,
    generator: { provider: string; model: string; generations: number } | null,
  ): Promise<ReadonlySet<string>>;
}

/**
 * Calls, prompt tokens and a cost bound for a whole grid, computed from the prompts a run would send. With
 * `optionSets`, a sample whose quiz would take an option set already made counts no option generation.
 */
export async function estimateGrid(
  prompts: PromptService,
  samples: SampleService,
  request: GridEstimateRequest,
  provider: GridEstimateProvider | null = null,
  budget: RenderBudget = { remaining: MAX_ESTIMATE_RENDERS },
  optionSets: OptionSetReuse | null = null,
) {
  const rows: {
    sample: Sample;
    kind: RunKind;
    setting: MemorizationSetting | null;
    quizPosition: string | null;
    shots: number;
    repeats: number;
    calls: number;
    maxCalls: number;
    promptTokens: number;
    maxPromptTokens: number;
    maxOutputTokens: number;
    largestCallTokens: number;
  }[] = [];
  const warnings: string[] = [];
  const sampleRows: Sample[] = [];
  for (const sampleId of request.sampleIds) sampleRows.push(await samples.get(sampleId));
  const cells = gridCells(sampleRows, request);
  // The work is one rendering and count per instance and cell (repeats only multiply): weighed before any is done,
  // so one small request cannot start minutes of CPU.
  const instanceCounts = await samples.instanceCounts(sampleRows.map((sample) => sample.id));
  const perSample = new Map(sampleRows.map((sample, index) => [sample.id, instanceCounts[index]]));
  const renders = cells.reduce((total, cell) => total + (perSample.get(cell.sample.id) ?? 0), 0);
  if (renders > budget.remaining)
    throw new BadInputError(
      `this estimate would render ${renders} prompts (${cells.length} cells) and the request may render ` +
        `${budget.remaining} more (MEMICL_MAX_ESTIMATE_PROMPTS): ask for fewer samples or k values at a time`,
      { field: "sampleIds" },
    );
  budget.remaining -= renders;
  // Per prompt version of the options' template: the samples whose option set is already made.
  const reused = new Map<number, ReadonlySet<string>>();
  for (const cell of cells) {
    const spec = {
      sampleId: cell.sample.id,
      kind: cell.kind,
      setting: cell.setting,
      shots: cell.shots,
      inContext: cell.inContext,
    };
    const estimated = await prompts.estimateRunTokens(spec);
    const { largestPromptTokens } = estimated;
    let { prompts: instances, promptTokens } = estimated;
    if (cell.kind === RunKind.QUIZ_OPTIONS && optionSets) {
      const version = estimated.prepared.template.version;
      if (!reused.has(version))
        reused.set(
          version,
          await optionSets.reusedBy(request.sampleIds, version, request.quizGenerator ?? null),
        );
      if (reused.get(version)!.has(cell.sample.id)) {
        instances = 0;
        promptTokens = 0;
      }
    }
    // Other requests are served between cells.
    await new Promise((resolve) => setImmediate(resolve));
    // Option generation: the first generation, and at most every regeneration an instance may take.
    const tries =
      cell.kind === RunKind.QUIZ_OPTIONS
        ? (request.quizOptionGenerations ?? QUIZ_DEFAULTS.optionGenerations)
        : 1;
    rows.push({
      sample: cell.sample,
      kind: cell.kind,
      setting: cell.setting,
      quizPosition: cell.quizPosition ?? null,
      shots: cell.shots,
      repeats: cell.repeats,
      calls: instances * cell.repeats,
      maxCalls: instances * cell.repeats * tries,
      promptTokens: promptTokens * cell.repeats,
      maxPromptTokens: promptTokens * cell.repeats * tries,
      maxOutputTokens: instances * cell.repeats * tries * cell.maxOutputTokens,
      largestCallTokens: instances > 0 ? largestPromptTokens + cell.maxOutputTokens : 0,
    });
    const limit = provider?.tokensPerMinute ?? null;
    if (limit !== null && instances > 0 && largestPromptTokens + cell.maxOutputTokens > limit)
      warnings.push(
        `${cell.kind.toLowerCase()}${cell.setting ? ` ${cell.setting}` : ""} k=${cell.shots} of sample ${cell.sample.id}: ` +
          `its largest prompt needs about ${largestPromptTokens + cell.maxOutputTokens} tokens (prompt and maximum output), ` +
          `more than provider "${provider!.name}" allows in a minute (tokensPerMinute ${limit}); such calls fail without being sent`,
      );
  }
  const sum = (pick: (row: (typeof rows)[number]) => number): number =>
    rows.reduce((total, row) => total + pick(row), 0);
  const promptTokens = sum((row) => row.promptTokens);
  const maxPromptTokens = sum((row) => row.maxPromptTokens);
  const maxOutputTokens = sum((row) => row.maxOutputTokens);
  const priced = request.inputPricePerMillionTokens != null && request.outputPricePerMillionTokens != null;
  const quiz = rows.some((row) => row.kind === RunKind.QUIZ);
  return {
    rows,
    calls: sum((row) => row.calls),
    maxCalls: sum((row) => row.maxCalls),
    promptTokens,
    maxOutputTokens,
    maxCostUsd: priced
      ? (maxPromptTokens * request.inputPricePerMillionTokens! +
          maxOutputTokens * request.outputPricePerMillionTokens!) /
        1e6
      : null,
    tokenizer: TOKENIZER,
    warnings,
    note:
      "Prompt tokens are counted with the o200k_base tokenizer (exact for GPT-4o-family models, an estimate for others), " +
      "tokenizing each run's shared demonstrations block once, so a prompt can be off by a token or two. " +
      "Output tokens and cost are upper bounds; provider prompt caching (the shared prefix) can lower the real cost. " +
      "Judging calls are not included (the heuristic judge makes none)." +
      (quiz
        ? " Quiz prompts are counted with the original standing in for each generated option (a perturbation is about " +
          "as long); option generation counts once per sample, at the examined model's prices, and not at all for a " +
          "sample whose quiz takes an option set already made" +
          (optionSets ? "" : " (not looked up here: every sample's generation is counted, an upper bound)") +
          "; maxCalls and the cost bound count every regeneration."
        : ""),
  };
}
