import { OptionSetService } from "./option-set.service";

/** What the quiz's option sets add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    optionSets: OptionSetService;
  }
}
