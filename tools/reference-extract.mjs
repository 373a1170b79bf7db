// Writes test/reference/ramp-service.facts.json: a facts-only extract of the production ramp service's
// published OpenAPI document (../shared/reference/ramp-service.openapi.json, or REFERENCE_OPENAPI), so the
// reference-client test runs on a fresh clone where that document is absent. Kept: the OpenAPI version,
// paths, methods, operationIds, parameters, request bodies, responses, security and components. Removed:
// every prose or illustrative field (description, summary, title, example(s), externalDocs, tags, $comment,
// info prose, servers). Sorted keys, two-space JSON, trailing newline; `x-source-sha256` names the source.
// `node tools/reference-extract.mjs --check` exits 1 when the checked-in extract is stale.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const EXTRACT_PATH = resolve(REPO_ROOT, "test/reference/ramp-service.facts.json");

/** Keywords that carry prose or illustrations, never facts a client or a validator needs. */
export const PROSE_KEYWORDS = [
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "externalDocs",
  "tags",
  "$comment",
];
const PROSE = new Set(PROSE_KEYWORDS);
/** Keywords whose value is a map from names (property names, status codes, media types...) to objects. */
const NAMED_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "paths",
  "webhooks",
  "responses",
  "content",
  "headers",
  "encoding",
  "links",
  "callbacks",
  "schemas",
  "parameters",
  "requestBodies",
  "securitySchemes",
  "pathItems",
  "mapping",
]);
/** Keywords whose value is data (copied as is, keys sorted). */
const DATA = new Set(["enum", "const", "default", "required"]);

/** The source document's path: REFERENCE_OPENAPI, else ../shared/reference/ramp-service.openapi.json. */
export function referenceSourcePath(env = process.env) {
  return resolve(REPO_ROOT, env.REFERENCE_OPENAPI ?? "../shared/reference/ramp-service.openapi.json");
}

export const sha256 = (text) => createHash("sha256").update(text).digest("hex");

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/** `node` with prose keywords removed; `named` when its keys are names (a property, a status code), not keywords. */
function clean(node, named = false) {
  if (Array.isArray(node)) return node.map((item) => clean(item));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key];
    if (named) out[key] = clean(value);
    else if (PROSE.has(key)) continue;
    else if (DATA.has(key) || key.startsWith("x-")) out[key] = sortKeys(value);
    else out[key] = clean(value, NAMED_MAPS.has(key) && !Array.isArray(value));
  }
  return out;
}

/**
 * OpenAPI requires a Response Object to have a `description`: the extract gives each an empty one so it stays
 * a valid document (openapi-typescript lints it), with no prose in it.
 */
function emptyResponseDescriptions(responses) {
  for (const response of Object.values(responses ?? {}))
    if (response && typeof response === "object" && !("$ref" in response)) response.description = "";
}

/** The facts-only extract of a parsed OpenAPI 3 document whose source text hashes to `sourceSha256`. */
export function extractFacts(document, sourceSha256) {
  const { openapi, info, paths, components, security, webhooks } = document;
  if (typeof openapi !== "string" || !openapi.startsWith("3.")) throw new Error("not an OpenAPI 3 document");
  const cleanPaths = clean(paths ?? {}, true);
  const cleanComponents = clean(components ?? {});
  for (const pathItem of Object.values(cleanPaths))
    for (const operation of Object.values(pathItem)) emptyResponseDescriptions(operation?.responses);
  emptyResponseDescriptions(cleanComponents.responses);
  return sortKeys({
    openapi,
    info: { title: info?.title ?? "ramp service", version: info?.version ?? "unknown" },
    paths: cleanPaths,
    components: cleanComponents,
    ...(security && { security: clean(security) }),
    ...(webhooks && { webhooks: clean(webhooks, true) }),
    "x-source-sha256": sourceSha256,
  });
}

export const serialize = (extract) => `${JSON.stringify(extract, null, 2)}\n`;

/** The extract's text made from the source document's text. */
export const extractText = (sourceText) => serialize(extractFacts(JSON.parse(sourceText), sha256(sourceText)));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const generated = extractText(readFileSync(referenceSourcePath(), "utf8"));
  if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(EXTRACT_PATH, "utf8");
    } catch {
      // missing: stale
    }
    if (current !== generated) {
      console.error("test/reference/ramp-service.facts.json is stale: run `npm run reference:extract`");
      process.exit(1);
    }
  } else {
    writeFileSync(EXTRACT_PATH, generated);
  }
}
