import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { exampleTabs } from "../../src/graphql/graphiql.js";
import { testEngine } from "../support/database.js";
import { expectCall, signIn } from "../support/e2e-http.js";
import { serverAndBrowser } from "../support/browser.js";

/**
 * GraphiQL (`GET /graphql` from a browser) of the BUILT server in Debian's Chromium: it opens on the gateway's
 * examples with empty headers, the schema loaded and no error, runs an example, takes a session token through
 * the header helper and keeps the headers across a reload. The first screen, its example run, is kept as
 * test-output/graphiql-<engine>.png.
 */

const SCREENSHOT = `test-output/graphiql-${testEngine()}.png`;
const EXAMPLE_TABS = exampleTabs();
const TABS = ["ReferenceData", "RequestSignInCode", "Me", "CreateQuote", "Ramps", "RampProgress"];

const started = serverAndBrowser();

/** A page on GraphiQL, and every error it reports (uncaught, or logged to the console). */
async function openGraphiQL(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(`${started.server.url}/graphql`);
  await page.waitForSelector(".graphiql-tab");
  return errors;
}

/** The text of one of GraphiQL's editors (CodeMirror keeps its instance on its element). */
const editorText = (page: Page, editor: "query" | "headers" | "response") =>
  page.$eval(
    {
      query: ".graphiql-query-editor .CodeMirror",
      headers: ".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror",
      response: ".graphiql-response .CodeMirror",
    }[editor],
    (element) => (element as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue(),
  );

/** Opens the docs explorer and waits for the schema's root types in it. */
async function schemaShown(page: Page) {
  await page.click('button[aria-label="Show Documentation Explorer"]');
  await page.waitForSelector(".graphiql-doc-explorer >> text=Root Types");
  expect(await page.textContent(".graphiql-doc-explorer")).toContain("subscription: Subscription");
}

/** Runs the tab's operation (this one, when the tab has several) and waits for its answer. */
async function run(page: Page, operation?: string): Promise<any> {
  await page.click(".graphiql-execute-button");
  if (operation) await page.click(`[role=menuitem] >> text="${operation}"`);
  await page.waitForFunction(`document.querySelector(".graphiql-response .CodeMirror").innerText.includes("}")`);
  return JSON.parse(await editorText(page, "response"));
}

const openTab = (page: Page, title: string) => page.click(`.graphiql-tab-button >> text="${title}"`);

/** The helper's form: a credential of this kind into the tab's headers. */
async function useCredential(page: Page, kind: "session" | "key", value: string) {
  await page.selectOption("#credential-kind", kind);
  await page.fill("#credential-value", value);
  await page.click("#header-helper button[type=submit]");
}

describe("GraphiQL in a browser", () => {
  it("opens on the gateway's examples with empty headers, the schema loaded and no error, and runs the first", async () => {
    const page = await started.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = await openGraphiQL(page);

    expect(await page.$$eval(".graphiql-tab-button", (tabs) => tabs.map((tab) => tab.textContent?.trim()))).toEqual(
      TABS,
    );
    expect(await editorText(page, "query")).toMatch(/^# The ramp gateway's GraphQL API/);
    expect(await editorText(page, "headers")).toBe("");
    await schemaShown(page);
    // Nothing ran and nothing failed: the answer pane is empty (a failed schema fetch would show there).
    expect(await editorText(page, "response")).toBe("");

    const answer = await run(page);
    expect(answer.data.supportedFiatCurrencies.map((currency: { symbol: string }) => currency.symbol)).toContain("EUR");
    expect(answer).toEqual(await expectCall(200, started.server, "POST", "/graphql", { body: EXAMPLE_TABS[0] }));
    mkdirSync("test-output", { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("takes a session token through the header helper, runs `me`, and keeps each tab's headers across a reload", async () => {
    const { profileId, headers } = await signIn(started.server, "graphiql");
    const token = headers.authorization!.slice("Bearer ".length);
    const context = await started.browser.newContext();
    const page = await context.newPage();
    const errors = await openGraphiQL(page);

    await openTab(page, "Me");
    await useCredential(page, "session", token);
    expect(JSON.parse(await editorText(page, "headers"))).toEqual({ Authorization: `Bearer ${token}` });
    const answer = await run(page, "Me");
    expect(answer.data.me.id).toBe(profileId);

    // A stale key on the tab shown after the reload: the schema, public in development, still loads.
    await openTab(page, "Ramps");
    await useCredential(page, "key", "sk_test_stale");
    // GraphiQL stores its tabs, each with its headers, a moment after an edit.
    await page.waitForFunction(`localStorage.getItem("ramp-gateway:graphiql:tabState").includes("sk_test_stale")`);
    await page.reload();
    await page.waitForSelector('.graphiql-tab-active >> text="Ramps"');
    expect(JSON.parse(await editorText(page, "headers"))).toEqual({ "X-API-Key": "sk_test_stale" });
    await schemaShown(page);
    await openTab(page, "Me");
    expect(JSON.parse(await editorText(page, "headers"))).toEqual({ Authorization: `Bearer ${token}` });

    await page.click("#header-helper button[type=button]");
    expect(JSON.parse(await editorText(page, "headers"))).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  });
});
