import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { envSchema } from "../../src/config-schema.js";
import { envExample, settingsRows } from "../../tools/env-example.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

describe(".env.example", () => {
  it("is generated from docs/configuration.md (npm run env:example)", () => {
    expect(read(".env.example")).toBe(envExample(read("docs/configuration.md")));
  });

  it("names every setting the service reads, once, and no other; the documentation's table likewise", () => {
    const settings = Object.keys(envSchema.shape).sort();
    const example = read(".env.example");
    const commentedOut = [...example.matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect([...commentedOut].sort()).toEqual(settings);
    const documented = settingsRows(read("docs/configuration.md")).flatMap((row) => row.names);
    expect([...documented].sort()).toEqual(settings);
  });

  it("shows each default the service applies, and parses to those defaults once uncommented", () => {
    const uncommented = read(".env.example").replace(/^# ([A-Z][A-Z0-9_]*=)/gm, "$1");
    const values = Object.fromEntries(Object.entries(parseEnv(uncommented)).filter(([, value]) => value !== ""));
    const defaults = envSchema.parse({});
    for (const [name, value] of Object.entries(values))
      expect(String(defaults[name as keyof typeof defaults]), name).toBe(value);
    expect(envSchema.parse(values)).toEqual(defaults);
  });
});
