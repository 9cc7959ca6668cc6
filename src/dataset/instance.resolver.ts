import { Arg, Ctx, FieldResolver, ID, Query, Resolver, Root } from "type-graphql";
import { Context } from "../graphql/context";
import { Dataset } from "./dataset.entity";
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
