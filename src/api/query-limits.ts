import { costLimitRule } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { GraphQLError, Lexer, Source, TokenKind, ValidationRule } from "graphql";
import { Config } from "../config/config";

// graphql-armor rules report through the validation context (GRAPHQL_VALIDATION_FAILED) instead of throwing, in
// words of their own: graphql-armor starts each message "Syntax Error:", which a query over a limit is not.
const report = {
  propagateOnRejection: false,
  onReject: [
    (context: { reportError(error: GraphQLError): void } | null, error: GraphQLError) =>
      context?.reportError(
        new GraphQLError(limitMessage(error.message), { nodes: error.nodes, extensions: error.extensions }),
      ),
  ],
};

/** A limit's message without graphql-armor's "Syntax Error: " prefix, naming the setting that sets it. */
export function limitMessage(message: string): string {
  const text = message.replace(/^Syntax Error:\s*/, "");
  const setting = /depth/i.test(text)
    ? "MEMICL_MAX_QUERY_DEPTH"
    : /alias/i.test(text)
      ? "MEMICL_MAX_QUERY_ALIASES"
      : /directive/i.test(text)
        ? "MEMICL_MAX_QUERY_DIRECTIVES"
        : /cost/i.test(text)
          ? "MEMICL_MAX_QUERY_COST"
          : null;
  return setting ? `${text} (${setting})` : text;
}

/** Depth, aliases, directives and cost of a query, each limited by configuration (graphql-armor's rules). */
export function queryLimitRules(config: Config): ValidationRule[] {
  return [
    maxDepthRule({ n: config.maxQueryDepth, ignoreIntrospection: true, ...report }),
    maxAliasesRule({ n: config.maxQueryAliases, ...report }),
    maxDirectivesRule({ n: config.maxQueryDirectives, ...report }),
    costLimitRule({ maxCost: config.maxQueryCost, ignoreIntrospection: true, ...report }),
  ] as unknown as ValidationRule[];
}

/**
 * Lexical tokens of a query, counted up to `max + 1` before anything is parsed, so a huge document is refused
 * for the price of reading it once. A query the lexer cannot read is left to the parser's own error.
 */
export function countQueryTokens(query: string, max: number): number {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      count += 1;
      if (count > max) break;
    }
  } catch {
    return 0;
  }
  return count;
}
