import { Principal } from "../auth/api-key.service";
import { Config } from "../config/config";
import { Logger } from "../logging/logger";

/**
 * The services a resolver reaches through the request context. Each concept adds its own from its folder, in
 * `<concept>.context.ts` (TypeScript's declaration merging: `declare module "../graphql/context"`), so this module
 * imports no concept and every concept's resolvers import it from below. The composition root (src/app/) builds
 * the object; the type checker holds it to the sum of every concept's part.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each concept adds its members (declaration merging)
export interface Services {}

/**
 * Per-request DataLoaders: every relation a list can reach is batched, so nested lists cost one query per level.
 * Declared like `Services`, by each concept for its own relations; built per request by src/app/context.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each concept adds its members (declaration merging)
export interface Loaders {}

export interface Context {
  config: Config;
  services: Services;
  loaders: Loaders;
  logger: Logger;
  /** The API key that made the request (null when authentication is off). */
  principal: Principal | null;
  /** Prompts this request's estimates may still render (all its `estimateGrid` aliases share it). */
  estimateBudget: { remaining: number };
}
