import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { JudgeExample } from "../judge/llm-judge";
import { batchOptionsOf } from "../llm/provider-config";
import { batchPrice } from "../llm/provider-registry";
import { TemplateBody } from "../prompt/template-body";
import { estimateGrid, TOKENIZER } from "./prompt.service";
import { judgeBodyOf, PromptTemplate, runBodyOf } from "./prompt-template.entity";
import {
  CreateJudgePromptVersionInput,
  CreatePromptTemplateVersionInput,
  EstimateGridInput,
  GridEstimate,
  JudgePromptView,
  PromptTemplateView,
  RenderedPrompt,
  RenderPromptInput,
} from "./template.types";

function toView(template: PromptTemplate): PromptTemplateView {
  const body = runBodyOf(template);
  return {
    id: template.id,
    key: template.key,
    version: template.version,
    instruction: body.instruction,
    instructionPlacement: body.instructionPlacement ?? "system",
    demonstration: body.demonstration,
    separator: body.separator,
    query: body.query,
    note: template.note,
    createdAt: template.createdAt,
  };
}

function toJudgeView(template: PromptTemplate): JudgePromptView {
  const prompt = judgeBodyOf(template);
  return {
    version: template.version,
    instruction: prompt.instruction,
    examples: prompt.examples,
    note: template.note,
    createdAt: template.createdAt,
  };
}

@Resolver()
export class TemplateResolver {
  @Query(() => [PromptTemplateView], { description: "Template versions, newest first within each key." })
  async promptTemplates(
    @Arg("key", () => String, { nullable: true }) key: string | undefined,
    @Ctx() { services }: Context,
  ) {
    return (await services.templates.list(key)).map(toView);
  }

  @Query(() => PromptTemplateView, {
    description: "One version of a template; the latest when no version is given.",
  })
  async promptTemplate(
    @Arg("key") key: string,
    @Arg("version", () => Int, { nullable: true }) version: number | undefined,
    @Ctx() { services }: Context,
  ) {
    return toView(await services.templates.get(key, version));
  }

  @Mutation(() => PromptTemplateView, {
    description: "Adds the next version of a template; earlier versions never change.",
  })
  async createPromptTemplateVersion(
    @Arg("input") input: CreatePromptTemplateVersionInput,
    @Ctx() { services }: Context,
  ) {
    const body: TemplateBody = {
      instruction: input.instruction ?? null,
      ...(input.instructionPlacement === "user" ? { instructionPlacement: "user" as const } : {}),
      demonstration: input.demonstration,
      separator: input.separator,
      query: input.query,
    };
    return toView(await services.templates.createVersion(input.key, body, input.note ?? null));
  }

  @Query(() => JudgePromptView, {
    description: "The LLM judge's prompt; the latest version when none is given.",
  })
  async judgePrompt(
    @Arg("version", () => Int, { nullable: true }) version: number | undefined,
    @Ctx() { services }: Context,
  ) {
    return toJudgeView((await services.templates.judgePrompt(version)).template);
  }

  @Mutation(() => JudgePromptView, {
    description: "Adds the next version of the LLM judge's prompt; judgments record the version they used.",
  })
  async createJudgePromptVersion(
    @Arg("input") input: CreateJudgePromptVersionInput,
    @Ctx() { services }: Context,
  ) {
    const template = await services.templates.createJudgePromptVersion(
      {
        instruction: input.instruction,
        examples: input.examples.map(({ reference, candidate, answer }) => ({
          reference,
          candidate,
          answer: answer as JudgeExample["answer"],
        })),
      },
      input.note ?? null,
    );
    return toJudgeView(template);
  }

  @Query(() => RenderedPrompt, {
    description: "The exact chat messages a run would send for one instance, without calling a model.",
  })
  async renderPrompt(
    @Arg("input") input: RenderPromptInput,
    @Ctx() { services }: Context,
  ): Promise<RenderedPrompt> {
    const { prepared, item, messages, tokenCount } = await services.prompts.preview(
      {
        sampleId: input.sampleId,
        kind: input.kind,
        setting: input.setting ?? null,
        shots: input.shots,
        templateVersion: input.templateVersion,
        inContext: input.inContext ?? false,
      },
      input.instanceId ?? null,
    );
    return {
      messages,
      tokenCount,
      tokenizer: TOKENIZER,
      templateKey: prepared.template.key,
      templateVersion: prepared.template.version,
      shots: input.shots,
      sampledInstance: item,
      demonstrationInstanceIds: prepared.demonstrations.map((row) => row.instanceId),
    };
  }

  @Query(() => GridEstimate, {
    description: "Calls, prompt tokens and a cost bound for a grid, before it runs.",
  })
  estimateGrid(@Arg("input") input: EstimateGridInput, @Ctx() { services, estimateBudget }: Context) {
    const provider = input.provider ? services.providers.config(input.provider) : null;
    const online = provider && input.model ? provider.prices[input.model] : undefined;
    const batched = input.batch ?? batchOptionsOf(provider) !== null;
    const price = online && batched ? batchPrice(online) : online;
    const priced =
      price && input.inputPricePerMillionTokens == null && input.outputPricePerMillionTokens == null
        ? {
            ...input,
            inputPricePerMillionTokens: price.inputPerMillion,
            outputPricePerMillionTokens: price.outputPerMillion,
          }
        : input;
    return estimateGrid(
      services.prompts,
      services.samples,
      priced,
      provider,
      estimateBudget,
      services.optionSets,
    );
  }
}
