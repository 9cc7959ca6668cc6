import { Client, createClient } from "graphql-ws";
import type { TypedDocument } from "./generated/operations";

/** The dashboard's only way to the service: the public GraphQL API at /graphql (HTTP and graphql-ws). */

const KEY_STORAGE = "memicl.apiKey";

export function apiKey(): string | null {
  return localStorage.getItem(KEY_STORAGE);
}

export function setApiKey(key: string | null): void {
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
  wsClient?.dispose();
  wsClient = null;
}

export class GraphQLRequestError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const endpoint = () => new URL("graphql", document.baseURI).toString();

/** Runs one of the dashboard's operations (web/src/operations.graphql); its result is typed from the schema. */
export async function gql<T, V>(query: TypedDocument<T, V>, variables?: V): Promise<T> {
  const key = apiKey();
  const response = await fetch(endpoint(), {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ query, variables: variables ?? {} }),
  });
  const body = (await response.json().catch(() => null)) as {
    data?: T;
    errors?: { message: string; extensions?: { code?: string } }[];
  } | null;
  if (!body) throw new GraphQLRequestError(`the service answered ${response.status} without JSON`, undefined);
  if (body.errors?.length) {
    const [first] = body.errors;
    throw new GraphQLRequestError(first.message, first.extensions?.code);
  }
  return body.data as T;
}

let wsClient: Client | null = null;

function client(): Client {
  if (!wsClient) {
    const url = endpoint().replace(/^http/, "ws");
    wsClient = createClient({
      url,
      lazy: true,
      retryAttempts: Number.POSITIVE_INFINITY,
      connectionParams: () => {
        const key = apiKey();
        return key ? { authorization: `Bearer ${key}` } : {};
      },
    });
  }
  return wsClient;
}

/** A subscription; returns the function that ends it. The first message is the current state. */
export function subscribe<T, V extends Record<string, unknown>>(
  query: TypedDocument<T, V>,
  variables: V,
  handlers: { next(data: T): void; error?(error: unknown): void; complete?(): void },
): () => void {
  return client().subscribe<T>(
    { query, variables },
    {
      next: (message) => {
        if (message.data) handlers.next(message.data as T);
        if (message.errors?.length) handlers.error?.(new Error(message.errors[0].message));
      },
      error: (error) => handlers.error?.(error),
      complete: () => handlers.complete?.(),
    },
  );
}
