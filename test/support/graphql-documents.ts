import { appendFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT_DIR } from "./secrets.js";

/*
 * Every GraphQL operation the suite sends, as sent, written down by the test clients (in-process, over HTTP and
 * over WebSocket): test/audit/graphql-executors.test.ts runs each through both executors once the suite is done.
 */

const DIRECTORY = join(OUTPUT_DIR, "graphql-documents");

/** Which schema an operation was sent to. */
export type GraphQLEndpoint = "graphql" | "admin";

export interface SentOperation {
  endpoint: GraphQLEndpoint;
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

let prepared = false;

/** Writes an operation down; anything that is no operation (a malformed body, a batch) is left out. */
export function recordOperation(endpoint: GraphQLEndpoint, sent: unknown): void {
  if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return;
  const { query, variables, operationName } = sent as Record<string, unknown>;
  if (typeof query !== "string") return;
  if (!prepared) mkdirSync(DIRECTORY, { recursive: true });
  prepared = true;
  const operation: SentOperation = {
    endpoint,
    query,
    ...(typeof variables === "object" && { variables: variables as SentOperation["variables"] }),
    ...(typeof operationName === "string" && { operationName }),
  };
  let line: string;
  try {
    line = JSON.stringify(operation);
  } catch {
    // Variables nested past what JSON.stringify can walk: the server refuses them before anything runs.
    return;
  }
  appendFileSync(join(DIRECTORY, `${process.pid}.jsonl`), `${line}\n`);
}

/** An HTTP request's operation, if it is one: a POST body (JSON text or value) or a GET's query string. */
export function recordHttpOperation(method: string, url: string, body: unknown): void {
  const [path, search] = url.split("?");
  const endpoint = path === "/graphql" ? "graphql" : path === "/admin/graphql" ? "admin" : undefined;
  if (!endpoint) return;
  if (method.toUpperCase() === "GET") {
    const params = new URLSearchParams(search ?? "");
    let variables: unknown;
    try {
      variables = params.has("variables") ? JSON.parse(params.get("variables")!) : undefined;
    } catch {
      return;
    }
    recordOperation(endpoint, { query: params.get("query"), variables, operationName: params.get("operationName") });
    return;
  }
  let sent = body;
  if (typeof body === "string" || Buffer.isBuffer(body)) {
    try {
      sent = JSON.parse(body.toString());
    } catch {
      return;
    }
  }
  recordOperation(endpoint, sent);
}

/** Every operation written down so far, each distinct one once. */
export function recordedOperations(): SentOperation[] {
  let files: string[];
  try {
    files = readdirSync(DIRECTORY).filter((file) => file.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const distinct = new Map<string, SentOperation>();
  for (const file of files)
    for (const line of readFileSync(join(DIRECTORY, file), "utf8").split("\n"))
      if (line) distinct.set(line, JSON.parse(line) as SentOperation);
  return [...distinct.values()];
}
