import {
  DocumentNode,
  GraphQLSchema,
  getNamedType,
  isObjectType,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from "graphql";

import { ROLES, type Role } from "./role-names";

export { ROLES, type Role };

export const roleRank = (role: Role) => ROLES.indexOf(role);
export const allows = (role: Role, required: Role) => roleRank(role) >= roleRank(required);

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * The role each mutation needs. Every mutation of the schema must be here: a test walks the schema and fails on
 * one that is missing, and the server refuses a mutation it has no rule for.
 */
export const MUTATION_ROLES: Record<string, Role> = {
  reviewCompletion: "reviewer",
  importDataset: "runner",
  updateDataset: "runner",
  createSample: "runner",
  startRun: "runner",
  startExperiment: "runner",
  cancelRun: "runner",
  resumeRun: "runner",
  setBudget: "runner",
  retryFailedCompletions: "runner",
  rejudge: "runner",
  createPromptTemplateVersion: "admin",
  createJudgePromptVersion: "admin",
  deleteExperiment: "admin",
  deleteSample: "admin",
  deleteDataset: "admin",
};

/**
 * Fields that reveal prompts, model outputs or dataset texts, and the role that may read them. Everything else a
 * query reaches needs `viewer`. Listed explicitly so that a new such field is a decision, not an accident: a test
 * checks that every field whose name says it holds text of that kind is listed here.
 */
export const FIELD_ROLES: Record<string, Role> = {
  "Completion.output": "viewer",
  "Completion.extractedAnswer": "viewer",
  "QuizOptionSet.options": "viewer",
  "TransitionRow.nearExactOutput": "viewer",
  "TransitionRow.exactOutput": "viewer",
  "Query.renderPrompt": "viewer",
  "RenderedPrompt.messages": "viewer",
  "Query.promptTemplates": "viewer",
  "Query.promptTemplate": "viewer",
  "Query.judgePrompt": "viewer",
  "Query.completionsToReview": "reviewer",
  // Where the workers run (machine names, process ids) is for those who run the service.
  "Worker.host": "admin",
  "Worker.pid": "admin",
};

/** Field names that say a field holds a prompt or a model's output: each such field must have a rule above. */
export const REVEALING_FIELD =
  /(^output$|Output$|^extractedAnswer$|^messages$|^renderPrompt$|^promptTemplates?$|^judgePrompt$)/;

/**
 * Everything a blind reviewer's key may select: the review queue and the review, and of each item what reviewing
 * needs (the answer, the instance's texts, the prompt's setting and k). An allow-list, so that no query, present
 * or future, reaches an automatic verdict, another reviewer's verdict, the provider or the model by accident: a
 * blind key's operation that selects anything else is refused, naming the fields.
 */
export const BLIND_FIELDS: ReadonlySet<string> = new Set([
  // Who the key is and what is serving: the key's own facts and the code version, nothing of the study.
  "Query.currentKey",
  "CurrentKey.name",
  "CurrentKey.role",
  "CurrentKey.blind",
  "Query.version",
  "ServiceVersion.codeVersion",
  "ServiceVersion.schemaHash",
  "ServiceVersion.node",
  "Query.completionsToReview",
  "Mutation.reviewCompletion",
  "CompletionConnection.edges",
  "CompletionConnection.pageInfo",
  "CompletionEdge.cursor",
  "CompletionEdge.node",
  "PageInfo.hasNextPage",
  "PageInfo.endCursor",
  "Completion.id",
  "Completion.repeat",
  "Completion.status",
  "Completion.output",
  "Completion.extractedAnswer",
  "Completion.sampledInstance",
  "Completion.run",
  "Run.id",
  "Run.kind",
  "Run.setting",
  "Run.shots",
  "SampledInstance.id",
  "SampledInstance.position",
  "SampledInstance.label",
  "SampledInstance.initialSegment",
  "SampledInstance.subsequentSegment",
  // The review's own answer: the reviewer's judgment, and the item as above.
  "ReviewCompletionPayload.completion",
  "ReviewCompletionPayload.judgment",
  "Judgment.id",
  "Judgment.verdict",
  "Judgment.judgeKind",
  "Judgment.judgeName",
  "Judgment.note",
  "Judgment.createdAt",
]);

/** The least role a request needs: the strictest rule over every field the operation selects. */
export function requiredRole(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): {
  role: Role;
  unknownMutations: string[];
  /** Fields selected that a blind reviewer may not read (`BLIND_FIELDS`), as `Type.field`. */
  outsideBlind: string[];
} {
  let role: Role = "viewer";
  const unknownMutations: string[] = [];
  const outsideBlind = new Set<string>();
  const typeInfo = new TypeInfo(schema);
  let inSelectedOperation = true;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      OperationDefinition: {
        enter(node) {
          inSelectedOperation = !operationName || node.name?.value === operationName;
        },
      },
      // Fragments always count (they may be spread by the operation that runs): stricter, never looser.
      FragmentDefinition: {
        enter() {
          inSelectedOperation = true;
        },
      },
      Field(node) {
        if (!inSelectedOperation) return;
        const parent = typeInfo.getParentType();
        if (!parent || !isObjectType(getNamedType(parent))) return;
        const name = `${parent.name}.${node.name.value}`;
        if (!node.name.value.startsWith("__") && !BLIND_FIELDS.has(name)) outsideBlind.add(name);
        let needed: Role | undefined = FIELD_ROLES[name];
        if (parent === schema.getMutationType()) {
          needed = MUTATION_ROLES[node.name.value];
          if (!needed) unknownMutations.push(node.name.value);
        }
        if (needed && roleRank(needed) > roleRank(role)) role = needed;
      },
    }),
  );
  return { role, unknownMutations, outsideBlind: [...outsideBlind] };
}
