import { Principal } from "../auth/api-key.service";
import { batchLoaders } from "../batch/batch.context";
import { completionLoaders } from "../completion/completion.context";
import { Config } from "../config/config";
import { datasetLoaders } from "../dataset/dataset.context";
import { Context, Loaders } from "../graphql/context";
import { judgmentLoaders } from "../judgment/judgment.context";
import { Logger } from "../logging/logger";
import { runLoaders } from "../run/run.context";
import { sampleLoaders } from "../sample/sample.context";
import { Services } from "./services";

/** Each concept's loaders, fresh for one request (src/graphql/context.ts declares what they are). */
export function createLoaders(services: Services): Loaders {
  return {
    ...datasetLoaders(services.datasets),
    ...sampleLoaders(services.samples),
    ...runLoaders(services.runs),
    ...completionLoaders(services.completions),
    ...judgmentLoaders(services.judgments),
    ...batchLoaders(services.dataSource),
  };
}

export function createContext(
  config: Config,
  services: Services,
  logger: Logger,
  principal: Principal | null = null,
): Context {
  return {
    config,
    services,
    loaders: createLoaders(services),
    logger,
    principal,
    estimateBudget: { remaining: config.maxEstimatePrompts },
  };
}
