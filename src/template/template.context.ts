import { PromptService } from "./prompt.service";
import { TemplateService } from "./template.service";

/** What templates and the prompts rendered from them add to the request context (src/graphql/context.ts). */
declare module "../graphql/context" {
  interface Services {
    templates: TemplateService;
    prompts: PromptService;
  }
}
