import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from "type-graphql";
import { Context } from "../api/context";
import { Dataset } from "../dataset/dataset.entity";
import { Instance } from "./instance.entity";

@Resolver(() => Instance)
export class InstanceResolver {
  @Query(() => Instance)
  instance(@Arg("id", () => ID) id: string, @Ctx() { services }: Context) {
    return services.datasets.getInstance(id);
  }

  @FieldResolver(() => Dataset)
  async dataset(@Root() instance: Instance, @Ctx() { loaders }: Context) {
    return loaders.dataset.load(instance.datasetId);
  }
}
