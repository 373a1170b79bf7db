import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEngine } from "../support/database.js";
import { startTestApp, type TestApp } from "../support/app.js";
import { expectError, ok } from "../support/kit.js";

/**
 * A NUL character in any text is refused with 400 VALIDATION_FAILED naming the field, on both engines, and
 * nothing is stored: PostgreSQL cannot store one (it answered 500), SQLite stored it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

describe(`NUL characters in input (${testEngine()})`, () => {
  it("credential, partner and managed-child creation refuse them, naming the field, and store nothing", async () => {
    const session = await t.signIn();
    const named = "ab\u0000cd";
    expectError(
      await t.request("POST", "/v1/api-credentials", { headers: session.headers, body: { name: named } }),
      400,
      "VALIDATION_FAILED",
      "name",
    );
    expect(ok(await t.request("GET", "/v1/api-credentials", { headers: session.headers })).credentials).toEqual([]);

    expectError(
      await t.request("POST", "/v1/admin/partners", { headers: t.operatorHeaders, body: { name: named } }),
      400,
      "VALIDATION_FAILED",
      "name",
    );
    expect(await t.app.db.partner.count({ where: { name: { contains: "ab" } } })).toBe(0);

    const manager = await t.signIn();
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["BR"], isActive: true },
      }),
      201,
    );
    const { secretKey } = await t.createCredential(manager.headers);
    expectError(
      await t.request("POST", "/v1/managed-profiles", {
        headers: { "x-api-key": secretKey },
        body: { externalSubjectId: "child\u0000one", contactEmail: "child@example.com", customerType: "individual" },
      }),
      400,
      "VALIDATION_FAILED",
      "externalSubjectId",
    );
    expect(await t.app.db.profile.count({ where: { managerProfileId: manager.profileId } })).toBe(0);
  });

  it("the same over GraphQL, and in a query string", async () => {
    const session = await t.signIn();
    const created = await t.graphql(
      "mutation ($input: CreateApiCredentialInput) { createApiCredential(input: $input) { credential { credential { id } } } }",
      { input: { name: "x\u0000" } },
      session.headers,
    );
    expect(created.body.errors[0].extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [{ field: "name", message: "must not contain NUL characters" }],
    });
    expectError(await t.request("GET", "/v1/supported-countries?name=Bra%00zil"), 400, "VALIDATION_FAILED", "name");
  });
});
