import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import { Context } from "../api/context";
import { estimateGrid, TOKENIZER } from "./prompt.service";
import { PromptTemplate } from "./prompt-template.entity";
import {
  CreatePromptTemplateVersionInput,
  EstimateGridInput,
  GridEstimate,
  PromptTemplateView,
  RenderedPrompt,
  RenderPromptInput,
} from "./template.types";
import { TemplateBody } from "./template-body";

function toView(template: PromptTemplate): PromptTemplateView {
  const body = template.body as unknown as TemplateBody;
  return {
    id: template.id,
    key: template.key,
    version: template.version,
    instruction: body.instruction,
    demonstration: body.demonstration,
    separator: body.separator,
    query: body.query,
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
      demonstration: input.demonstration,
      separator: input.separator,
      query: input.query,
    };
    return toView(await services.templates.createVersion(input.key, body, input.note ?? null));
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
  estimateGrid(@Arg("input") input: EstimateGridInput, @Ctx() { services }: Context) {
    return estimateGrid(services.prompts, services.samples, input);
  }
}
