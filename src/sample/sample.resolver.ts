import { Arg, Args, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { Dataset } from "../dataset/dataset.entity";
import { Instance } from "../dataset/instance.entity";
import { ConnectionType } from "../graphql/connection";
import { Context } from "../graphql/context";
import { PageArgs } from "../graphql/page-args";
import { isTrivialTarget, TRIVIAL_TARGET_WORDS } from "../study/targets";
import { Demonstration } from "./demonstration.entity";
import { presentationOrder } from "./design/design-sample";
import { Sample } from "./sample.entity";
import { CreateSampleInput, CreateSamplePayload, SampleExclusionView, SampleFilter } from "./sample.inputs";
import { SampledInstance } from "./sampled-instance.entity";

export const SampleConnection = ConnectionType("Sample", Sample);
export const SampledInstanceConnection = ConnectionType("SampledInstance", SampledInstance);

@Resolver(() => Sample)
export class SampleResolver {
  @Mutation(() => CreateSamplePayload, {
    description:
      "Draws a study sample: label-balanced instances and disjoint, label-balanced demonstrations, segmented, " +
      "with nested k-shot sets. The same dataset files, seed and parameters return the existing sample.",
  })
  createSample(@Arg("input") input: CreateSampleInput, @Ctx() { services }: Context) {
    return services.samples.create(input);
  }

  @Query(() => Sample)
  sample(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.samples.get(id);
  }

  @Query(() => SampleConnection, { description: "Samples, oldest first." })
  samples(
    @Args() { first, after }: PageArgs,
    @Arg("filter", () => SampleFilter, { nullable: true }) filter: SampleFilter | undefined,
    @Ctx() { services }: Context,
  ) {
    return services.samples.list(first, after ?? null, filter);
  }

  @FieldResolver(() => Dataset)
  dataset(@Root() sample: Sample, @Ctx() { loaders }: Context) {
    return loaders.dataset.load(sample.datasetId);
  }

  @FieldResolver(() => Int, { description: "Instances under test actually drawn." })
  instanceCount(@Root() sample: Sample, @Ctx() { loaders }: Context) {
    return loaders.sampleInstanceCount.load(sample.id);
  }

  @FieldResolver(() => Int, { description: "Demonstrations actually drawn." })
  demonstrationCount(@Root() sample: Sample, @Ctx() { loaders }: Context) {
    return loaders.sampleDemonstrationCount.load(sample.id);
  }

  @FieldResolver(() => SampledInstanceConnection, { description: "Instances under test, by position." })
  instances(@Root() sample: Sample, @Args() { first, after }: PageArgs, @Ctx() { loaders }: Context) {
    return loaders.sampledInstancePage.load({ sampleId: sample.id, first, after: after ?? null });
  }

  @FieldResolver(() => [Demonstration], {
    description:
      "The k-shot demonstration set: in presentation order (the order prompts show them, the same for every " +
      "prompt of that k), or by nesting rank when `byRank` is true. Without `shots`, all of them by rank.",
  })
  async demonstrations(
    @Root() sample: Sample,
    @Arg("shots", () => Int, { nullable: true }) shots: number | undefined,
    @Arg("byRank", { defaultValue: false }) byRank: boolean,
    @Ctx() { loaders }: Context,
  ) {
    const k = shots ?? sample.requestedDemonstrationCount;
    const ranked = await loaders.demonstrationSet.load({ sampleId: sample.id, shots: Math.max(0, k) });
    return byRank || shots === undefined ? ranked : presentationOrder(ranked, k, sample.seed);
  }

  @FieldResolver(() => [SampleExclusionView], {
    description: "Rows reached while sampling that could not be used (at most 1,000 listed).",
  })
  exclusions(@Root() sample: Sample) {
    return sample.exclusions;
  }
}

@Resolver(() => SampledInstance)
export class SampledInstanceResolver {
  @FieldResolver(() => Instance, { description: "The dataset row." })
  instance(@Root() item: SampledInstance, @Ctx() { loaders }: Context) {
    return loaders.instance.load(item.instanceId);
  }

  @FieldResolver(() => Boolean, {
    description:
      "Whether the reference is trivial: punctuation only, or fewer words (lower case, punctuation dropped) than " +
      "the sample's minTargetWords (3 for samples drawn before design version 3). Reports can leave these out.",
  })
  async trivialTarget(@Root() item: SampledInstance, @Ctx() { loaders }: Context): Promise<boolean> {
    const sample = await loaders.sample.load(item.sampleId);
    return isTrivialTarget(item.subsequentSegment, sample?.minTargetWords ?? TRIVIAL_TARGET_WORDS);
  }
}

@Resolver(() => Demonstration)
export class DemonstrationResolver {
  @FieldResolver(() => Instance, { description: "The dataset row." })
  instance(@Root() item: Demonstration, @Ctx() { loaders }: Context) {
    return loaders.instance.load(item.instanceId);
  }
}

/** A dataset's samples: the sample concept's field on a dataset. */
@Resolver(() => Dataset)
export class DatasetSamplesResolver {
  @FieldResolver(() => [Sample], { description: "Study samples drawn from this dataset, oldest first." })
  samples(@Root() dataset: Dataset, @Ctx() { loaders }: Context) {
    return loaders.datasetSamples.load(dataset.id);
  }
}
