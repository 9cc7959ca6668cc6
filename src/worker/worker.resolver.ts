import { Ctx, Field, Int, ObjectType, Query, Resolver } from "type-graphql";
import { Context } from "../graphql/context";
import { Worker } from "./worker.entity";

@ObjectType({
  description: "A configured provider: whether this server can call it, and how many live workers can.",
})
export class Provider {
  @Field()
  name: string;

  @Field({ description: "openai, azure or simulated" })
  type: string;

  @Field({ description: "Can this server process call it (its key is set here)?" })
  usableHere: boolean;

  @Field(() => String, { nullable: true, description: "Why this server cannot call it." })
  unusableReason: string | null;

  @Field(() => Int)
  maxConcurrency: number;

  @Field(() => Number, { nullable: true })
  requestsPerMinute: number | null;

  @Field(() => Number, { nullable: true })
  tokensPerMinute: number | null;

  @Field(() => Int, { description: "Live workers (any process on this database) that can call it." })
  liveWorkers: number;
}

@Resolver()
export class WorkerResolver {
  @Query(() => [Worker], { description: "The workers alive now (beat within two leases), newest first." })
  workers(@Ctx() { services }: Context) {
    return services.workers.live();
  }

  @Query(() => [Provider], {
    description: "The configured providers (names and limits; never URLs or keys).",
  })
  providers(@Ctx() { services }: Context) {
    return services.workers.providerStates();
  }
}
