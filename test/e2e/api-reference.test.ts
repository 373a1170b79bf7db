import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { expectCall } from "../support/e2e-http.js";
import { serverAndBrowser } from "../support/browser.js";

/**
 * The REST API reference (`GET /docs`) of the BUILT server in Debian's Chromium: Redoc renders the served OpenAPI
 * document, with every file from the server (it works offline) and no error in the page. Its first screen is kept
 * as test-output/api-reference-<engine>.png.
 */

const SCREENSHOT = `test-output/api-reference-${testEngine()}.png`;

const started = serverAndBrowser();

describe("the API reference page in a browser", () => {
  it(
    "renders the served OpenAPI document's title and operations, loading nothing from elsewhere",
    { timeout: 60_000 },
    async () => {
      const document = await expectCall(200, started.server, "GET", "/v1/openapi.json");
      const quoteCreation = document.paths["/v1/quotes"].post;
      const page = await started.browser.newPage();
      const origins = new Set<string>();
      const errors: string[] = [];
      page.on("requestfinished", (request) => origins.add(new URL(request.url()).origin));
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));

      await page.goto(`${started.server.url}/docs`);
      await page.waitForSelector(`h1:has-text(${JSON.stringify(document.info.title)})`);
      await page.waitForSelector(`h2:has-text(${JSON.stringify(quoteCreation.summary)})`);
      // Each operation with its method and path, as Redoc's endpoint panel names it.
      expect(await page.textContent("body")).toMatch(/post\s*\/v1\/quotes/);
      mkdirSync("test-output", { recursive: true });
      await page.screenshot({ path: SCREENSHOT });

      // The one error: Redocly's logo, which the page's policy keeps the browser from fetching from their CDN.
      expect(errors).toEqual([
        expect.stringMatching(/^Loading the image 'https:\/\/cdn\.redoc\.ly\/.*Content Security Policy/),
      ]);
      // Blob URLs (Redoc's search worker) have the page's origin; nothing was fetched from another host.
      expect([...origins].filter((origin) => origin !== started.server.url && origin !== "null")).toEqual([]);
      await page.close();
    },
  );

  it("serves Redoc's script cached for an hour, and the page to any caller (no credential)", async () => {
    const script = await fetch(`${started.server.url}/docs/redoc.standalone.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    const page = await fetch(`${started.server.url}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<redoc spec-url="/v1/openapi.json"');
  });
});
