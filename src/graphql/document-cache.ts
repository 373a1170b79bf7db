import {
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import { LRUCache } from "lru-cache";
import { briefDocumentMessage } from "./errors.js";

/** A document's text parsed and validated: the document, or what refuses it (brief, as callers are told). */
export type CheckedDocument = { document: DocumentNode; refusals?: never } | { document?: never; refusals: string[] };

/** The total length of the texts kept: a syntax tree is some ten times its text, so a few MB in all. */
const MAX_CACHED_TEXT = 256 * 1024;

/**
 * Parses and validates each document text once, not once per subscriber: subscribers of one query share one
 * syntax tree (a tree keeps every token and location of its text), and a thousand subscriptions cost one
 * validation. The texts kept are bounded by their total length, the least recently used out first.
 */
export function documentChecker(
  schema: GraphQLSchema,
  rules: readonly ValidationRule[],
  maxTokens: number,
): (text: string) => CheckedDocument {
  const checked = new LRUCache<string, CheckedDocument>({
    maxSize: MAX_CACHED_TEXT,
    sizeCalculation: (_document, text) => Math.max(1, text.length),
  });
  const check = (text: string): CheckedDocument => {
    let document;
    try {
      document = parse(text, { maxTokens });
    } catch (error) {
      return { refusals: [briefDocumentMessage((error as GraphQLError).message)] };
    }
    const invalid = validate(schema, document, rules);
    return invalid.length ? { refusals: invalid.map((error) => briefDocumentMessage(error.message)) } : { document };
  };
  return (text) => {
    let result = checked.get(text);
    if (result === undefined) checked.set(text, (result = check(text)));
    return result;
  };
}
