// Generates .env.example from the settings table of docs/configuration.md (the one place each setting is
// explained): every variable commented out at its default, under its meaning.
// `npm run env:example` writes it; test/contract/env-example.test.ts fails when the checked-in file is stale.
import { readFile, writeFile } from "node:fs/promises";

const WIDTH = 116;

/** Markdown as plain text: links as their text, emphasis and code marks dropped. */
const plain = (text: string) =>
  text
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/`/g, "")
    .replace(/\\\|/g, "|");

/** Words wrapped into `# ` comment lines. */
function comment(text: string): string[] {
  const lines = [];
  let line = "#";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    // A line never starts with NAME=, which would read as a setting to uncomment.
    if (line.length + 1 + word.length > WIDTH && line !== "#" && !/^[A-Z][A-Z0-9_]*=/.test(word)) {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** The table's rows: the variables a row names, their defaults (one each, or one for all) and the meaning. */
export function settingsRows(markdown: string): { names: string[]; defaults: string[]; meaning: string }[] {
  return markdown
    .split("\n")
    .filter((line) => /^\| `[A-Z_]+`/.test(line))
    .map((line) => {
      const cells = line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim());
      const [nameCell = "", defaultCell = "", meaning = ""] = cells;
      const names = [...nameCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!);
      const defaults = defaultCell.split(" / ");
      return { names, defaults: defaults.length === names.length ? defaults : names.map(() => defaultCell), meaning };
    });
}

/** A default as a value to uncomment: a literal in backticks as it is, anything else (unset, generated) left empty. */
const valueOf = (cell: string) => (/^`[^`]*`$/.test(cell) ? cell.slice(1, -1) : "");

/** A value as .env reads it back: quoted when it holds spaces or a comment mark. */
const quoted = (value: string) => (/[\s#"']/.test(value) ? JSON.stringify(value) : value);

export function envExample(markdown: string): string {
  const sections = settingsRows(markdown).map(({ names, defaults, meaning }) =>
    [
      ...comment(plain(meaning)),
      ...names.flatMap((name, index) => {
        const cell = defaults[index]!;
        const value = valueOf(cell);
        const unwritten = value === "" && cell !== "empty";
        return [...(unwritten ? comment(`(default: ${plain(cell)})`) : []), `# ${name}=${quoted(value)}`];
      }),
    ].join("\n"),
  );
  return [
    "# Every setting of the ramp gateway, at its default: copy this file to .env and uncomment what you change.",
    "# The server and `npm run -s admin` read .env from the directory they start in; the environment wins over it.",
    "# Generated from docs/configuration.md by `npm run env:example`: explained there in full.",
    "",
    sections.join("\n\n"),
    "",
  ].join("\n");
}

const isMain = process.argv[1] && import.meta.url === new URL(process.argv[1], "file://").href;
if (isMain) {
  const markdown = await readFile(new URL("../docs/configuration.md", import.meta.url), "utf8");
  await writeFile(new URL("../.env.example", import.meta.url), envExample(markdown));
}
