import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a dev-only JavaScript tool without typings
import * as tool from "../../tools/reference-extract.mjs";

/*
 * test/reference/ramp-service.facts.json is made by `npm run reference:extract` from the production ramp
 * service's published OpenAPI document, which lives OUTSIDE the repository (../shared/reference, or
 * REFERENCE_OPENAPI). Where the source is present it is the judge: the checked-in extract must be exactly what
 * the script makes of it now. On a fresh clone without ../shared the source cannot be read, and skipping would
 * pass without checking anything; so the test then checks what it still can: the checked-in extract is a
 * fixed point of the script (re-extracting it, with the source digest it records, gives it back byte for
 * byte: no prose left, keys sorted, two-space JSON, the digest field present) and the generated types are
 * fresh. Each case asserts something in both situations; none is skipped.
 */

const extractFacts = tool.extractFacts as (document: unknown, sourceSha256: string) => Record<string, unknown>;
const serialize = tool.serialize as (extract: unknown) => string;
const extractText = tool.extractText as (sourceText: string) => string;
const referenceSourcePath = tool.referenceSourcePath as () => string;
const PROSE_KEYWORDS = tool.PROSE_KEYWORDS as string[];
const EXTRACT_PATH = tool.EXTRACT_PATH as string;
const TYPES_PATH = new URL("../reference/ramp-service.d.ts", import.meta.url);

const checkedIn = readFileSync(EXTRACT_PATH, "utf8");
const parsed = JSON.parse(checkedIn) as Record<string, any>;
const source = referenceSourcePath();
const sourcePresent = existsSync(source);

/** Every key used as a keyword (not a name under properties, paths, responses...) anywhere in the document. */
function keywordKeys(node: unknown, named = false, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) keywordKeys(item, false, found);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (!named) found.add(key);
      if (["enum", "const", "default", "required"].includes(key) || key.startsWith("x-")) continue;
      const map = ["properties", "paths", "responses", "content", "headers", "schemas", "parameters"].includes(key);
      keywordKeys(value, map && !Array.isArray(value), found);
    }
  return found;
}

describe(`reference extract (${sourcePresent ? "source present" : "source absent: self-consistency only"})`, () => {
  it("the checked-in extract is what the script makes of the source (or, without the source, of itself)", () => {
    if (sourcePresent) {
      const generated = extractText(readFileSync(source, "utf8"));
      expect(
        checkedIn === generated,
        "test/reference/ramp-service.facts.json is stale: run `npm run reference:extract` then `npm run reference:types`",
      ).toBe(true);
    } else {
      expect(serialize(extractFacts(parsed, parsed["x-source-sha256"]))).toBe(checkedIn);
    }
  });

  it("is a facts-only OpenAPI 3 document: digest, minimal info, paths and schemas, no prose", () => {
    expect(parsed["x-source-sha256"]).toMatch(/^[0-9a-f]{64}$/);
    expect(parsed.openapi).toMatch(/^3\./);
    expect(Object.keys(parsed.info).sort()).toEqual(["title", "version"]);
    expect(Object.keys(parsed.paths).length).toBeGreaterThan(50);
    expect(Object.keys(parsed.components.schemas).length).toBeGreaterThan(50);
    const keywords = keywordKeys({ ...parsed, info: {} });
    for (const prose of PROSE_KEYWORDS.filter((keyword) => keyword !== "description"))
      expect(keywords.has(prose), prose).toBe(false);
    // OpenAPI requires a Response Object's description: the extract keeps it, always empty.
    const descriptions = JSON.stringify(parsed).match(/"description":"[^"]+"/g) ?? [];
    expect(descriptions).toEqual([]);
    expect(checkedIn).toBe(serialize(parsed));
    expect(checkedIn.endsWith("}\n")).toBe(true);
  });

  it("the script removes prose but keeps names that look like keywords", () => {
    const document = {
      openapi: "3.1.0",
      info: { title: "T", version: "1", description: "prose" },
      tags: [{ name: "x", description: "prose" }],
      servers: [{ url: "https://example.com" }],
      paths: {
        "/b": {
          get: {
            summary: "prose",
            tags: ["x"],
            operationId: "b",
            parameters: [{ name: "q", in: "query", required: true, schema: { type: "string", example: "e" } }],
            responses: {
              "200": {
                description: "prose",
                content: { "application/json": { examples: {}, schema: { $ref: "#/components/schemas/S" } } },
              },
            },
          },
        },
        "/a": { post: { responses: { "204": { description: "none" } } } },
      },
      components: {
        schemas: {
          S: {
            type: "object",
            title: "prose",
            properties: { title: { type: "string", description: "prose" }, description: { type: "string" } },
            required: ["title", "description"],
            enum: [{ description: "data" }],
          },
        },
      },
    };
    expect(extractFacts(document, "0".repeat(64))).toEqual({
      openapi: "3.1.0",
      info: { title: "T", version: "1" },
      paths: {
        "/a": { post: { responses: { "204": { description: "" } } } },
        "/b": {
          get: {
            operationId: "b",
            parameters: [{ in: "query", name: "q", required: true, schema: { type: "string" } }],
            responses: {
              "200": {
                content: { "application/json": { schema: { $ref: "#/components/schemas/S" } } },
                description: "",
              },
            },
          },
        },
      },
      components: {
        schemas: {
          S: {
            enum: [{ description: "data" }],
            properties: { description: { type: "string" }, title: { type: "string" } },
            required: ["title", "description"],
            type: "object",
          },
        },
      },
      "x-source-sha256": "0".repeat(64),
    });
  });

  it("test/reference/ramp-service.d.ts is generated from the extract (npm run reference:types)", () => {
    const generated = execFileSync(
      process.execPath,
      ["node_modules/openapi-typescript/bin/cli.js", EXTRACT_PATH, "--redocly", "test/reference/redocly.yaml"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    expect(readFileSync(TYPES_PATH, "utf8") === generated, "stale: run `npm run reference:types`").toBe(true);
  });
});
