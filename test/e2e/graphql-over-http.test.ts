import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serverAudits, type AuditResult } from "graphql-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * The GraphQL-over-HTTP audit of the `graphql-http` package (the specification's reference implementation)
 * against the BUILT server's `/graphql`: every MUST passes, and every SHOULD passes unless docs/api.md's
 * "GraphQL over HTTP" section lists it with the reason. MAYs are options, not checked.
 */

const API_DOCUMENT = fileURLToPath(new URL("../../docs/api.md", import.meta.url));

/** The SHOULDs docs/api.md says are not followed: audit id -> the audit's name as docs/api.md gives it. */
function documentedExceptions(): Map<string, string> {
  const section = readFileSync(API_DOCUMENT, "utf8")
    .split(/^## /m)
    .find((part) => part.startsWith("GraphQL over HTTP\n"));
  if (!section) throw new Error('docs/api.md has no "## GraphQL over HTTP" section');
  return new Map([...section.matchAll(/^\| `(\w{4})` \| (.+?) \|/gm)].map(([, id, name]) => [id!, name!]));
}

let server: ServerProcess;
const audits = serverAudits({ url: () => `${server.url}/graphql` });
const exceptions = documentedExceptions();

beforeAll(async () => {
  server = await startServerProcess();
});
afterAll(async () => {
  await server?.dispose();
});

async function run(id: string): Promise<AuditResult> {
  const result = await audits.find((audit) => audit.id === id)!.fn();
  if (result.status !== "ok") await result.response.body?.cancel();
  return result;
}
const reason = (result: AuditResult) => (result.status === "ok" ? "" : result.reason);

describe(`GraphQL over HTTP (${process.env.TEST_DB ?? "sqlite"})`, () => {
  const musts = audits.filter((audit) => audit.name.startsWith("MUST "));
  const shoulds = audits.filter((audit) => audit.name.startsWith("SHOULD "));

  it("the audit has requirements of both levels", () => {
    expect(musts.length).toBeGreaterThan(10);
    expect(shoulds.length).toBeGreaterThan(10);
  });

  it.each(musts.map((audit) => [audit.id, audit.name]))("%s %s", async (id) => {
    const result = await run(id);
    expect(result.status, reason(result)).toBe("ok");
  });

  it.each(shoulds.filter((audit) => !exceptions.has(audit.id)).map((audit) => [audit.id, audit.name]))(
    "%s %s",
    async (id) => {
      const result = await run(id);
      expect(result.status, `${reason(result)}: follow it, or list it in docs/api.md with the reason`).toBe("ok");
    },
  );

  it.each([...exceptions])("%s is listed in docs/api.md as not followed, and is not: %s", async (id, name) => {
    const audit = audits.find((candidate) => candidate.id === id);
    expect(audit?.name, `docs/api.md names ${id} as graphql-http does`).toBe(name);
    expect(name).toMatch(/^SHOULD /);
    const result = await run(id);
    expect(result.status, "it passes now: take it off docs/api.md's list").toBe("warn");
  });
});
