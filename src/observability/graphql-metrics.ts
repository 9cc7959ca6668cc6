import { ApolloServerPlugin } from "@apollo/server";
import { graphqlDuration, graphqlOperations, operationLabel } from "./metrics";

/** Counts and times every GraphQL operation by name, type and outcome. */
export function graphqlMetricsPlugin<Context extends object>(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse({ operationName, operation, errors, response }) {
          const type = operation?.operation ?? "unknown";
          const name = operationLabel(operationName);
          const failed =
            (errors?.length ?? 0) > 0 ||
            (response.body.kind === "single" && (response.body.singleResult.errors?.length ?? 0) > 0);
          graphqlOperations.inc({ operation: name, type, outcome: failed ? "error" : "ok" });
          graphqlDuration.observe({ operation: name, type }, (performance.now() - started) / 1000);
        },
      };
    },
  };
}
