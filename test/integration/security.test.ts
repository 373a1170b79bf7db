import { afterAll, beforeAll, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(() => t?.close());
it("scratch", async () => {
  console.log(t.server.printRoutes({ commonPrefix: false }));
  console.log(t.server.printRoutes({ commonPrefix: false, method: "DELETE" } as any));
  const doc = await t.request("GET", "/v1/openapi.json");
  console.log(JSON.stringify(Object.fromEntries(Object.entries(doc.body.paths).map(([p, v]: any) => [p, Object.keys(v)]))));
  const r = await t.request("POST", "/v1/api-credentials", { headers: { "x-api-key": "sk_test_short" }, rawBody: "{bad" });
  console.log(r.status, JSON.stringify(r.body));
  const g = await t.graphql("{ me { id } }", undefined, { "x-api-key": "sk_test_short" });
  console.log(g.status, JSON.stringify(g.body));
  const g2 = await t.graphql("{ me { id apiCredentials { count } } }", undefined, {});
  console.log(g2.status, JSON.stringify(g2.body));
});
