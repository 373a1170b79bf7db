import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/app.js";
import { rememberSecret } from "../support/secrets.js";
import { expectError, expectPagedList, newestFirst, ok, seedTimes } from "../support/kit.js";

/**
 * Sender-side recipients (CONTRACT.md, capability matrix: a session only; issue 6): invitations by email,
 * their listing, archiving and relationship, the recipients and their eligibility, and the invitee's own
 * preview and acceptance with the mailed code, on the project's engine.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: "100000", RATE_LIMIT_PER_CREDENTIAL_PER_MINUTE: "100000" });
});
afterAll(() => t?.close());

type Headers = Record<string, string>;
interface User {
  profileId: string;
  email: string;
  session: Headers;
}

async function newUser(): Promise<User> {
  const email = `person-${randomUUID().slice(0, 8)}@example.com`;
  const session = await t.signIn(email);
  return { profileId: session.profileId, email, session: session.headers };
}

const invite = (sender: Headers, email: string, relationship = "family") =>
  t.request("POST", "/v1/recipients/invitations", { headers: sender, body: { email, relationship } });
const preview = (invitee: Headers, code: string) =>
  t.request("POST", "/v1/recipient-invitations/preview", { headers: invitee, body: { code } });
const accept = (invitee: Headers, code: string) =>
  t.request("POST", "/v1/recipient-invitations/accept", { headers: invitee, body: { code } });
const invitations = async (sender: Headers, archived = false) =>
  ok(await t.request("GET", `/v1/recipients/invitations?archived=${archived}`, { headers: sender })).invitations;
const recipients = async (sender: Headers) =>
  ok(await t.request("GET", "/v1/recipients", { headers: sender })).recipients;

describe("inviting and accepting", () => {
  it("mails a code to the invitee, who previews and accepts it signed in with that email; the sender then sees a recipient", async () => {
    const sender = await newUser();
    const invitee = await newUser();
    const created = ok(await invite(sender.session, `  ${invitee.email.toUpperCase()} `, "friend"), 201);
    expect(created).toMatchObject({ email: invitee.email, relationship: "friend", status: "pending", archived: false });
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(6 * 24 * 3600 * 1000);
    const code = await t.smtp.nextInvitationCode(invitee.email);
    expect(JSON.stringify(created)).not.toContain(code);
    const stored = await t.app.db.recipientInvitation.findUniqueOrThrow({ where: { id: created.id } });
    expect(JSON.stringify(stored)).not.toContain(code);

    const seen = ok(await preview(invitee.session, code));
    expect(seen).toEqual({
      invitationId: created.id,
      sender: `${sender.email[0]}***@example.com`,
      relationship: "friend",
      expiresAt: created.expiresAt,
    });
    expect((await invitations(sender.session)).map((invitation: any) => invitation.id)).toEqual([created.id]);

    const accepted = ok(await accept(invitee.session, code));
    expect(accepted).toMatchObject({ invitationId: created.id, relationship: "friend" });
    expect(await recipients(sender.session)).toEqual([
      { id: created.id, email: invitee.email, relationship: "friend", acceptedAt: accepted.acceptedAt },
    ]);
    expect(await invitations(sender.session)).toEqual([]);
    // Used once: the code no longer works, and inviting the recipient again is refused.
    expectError(await accept(invitee.session, code), 404, "NOT_FOUND");
    expectError(await invite(sender.session, invitee.email), 400, "VALIDATION_FAILED", "email");
  });

  it("accepts only for the invited email, with the latest code, while pending and unarchived", async () => {
    const sender = await newUser();
    const invitee = await newUser();
    const someoneElse = await newUser();
    ok(await invite(sender.session, invitee.email), 201);
    const stale = await t.smtp.nextInvitationCode(invitee.email);
    // Inviting again mails a new code; the old one stops working.
    const again = ok(await invite(sender.session, invitee.email, "business"));
    const code = await t.smtp.nextInvitationCode(invitee.email);
    expect(again.relationship).toBe("business");
    expectError(await preview(invitee.session, stale), 404, "NOT_FOUND");
    expectError(await preview(someoneElse.session, code), 404, "NOT_FOUND");
    expectError(await accept(someoneElse.session, code), 404, "NOT_FOUND");
    expectError(await accept(sender.session, code), 404, "NOT_FOUND");
    expectError(await accept(invitee.session, ""), 400, "VALIDATION_FAILED", "code");

    ok(await t.request("POST", `/v1/recipients/invitations/${again.id}/archive`, { headers: sender.session }));
    expectError(await accept(invitee.session, code), 404, "NOT_FOUND");
    ok(await t.request("POST", `/v1/recipients/invitations/${again.id}/unarchive`, { headers: sender.session }));
    // Concurrent acceptances: one wins.
    const results = await Promise.all(Array.from({ length: 5 }, () => accept(invitee.session, code)));
    expect(results.map((response) => response.status).sort()).toEqual([200, 404, 404, 404, 404]);
    expect(
      await t.app.db.recipientInvitation.count({ where: { senderProfileId: sender.profileId, status: "accepted" } }),
    ).toBe(1);
  });

  it("refuses inviting oneself or an invalid email or relationship, and creates nothing", async () => {
    const sender = await newUser();
    expectError(await invite(sender.session, sender.email), 400, "VALIDATION_FAILED", "email");
    expectError(await invite(sender.session, "not-an-email"), 400, "VALIDATION_FAILED", "email");
    expectError(await invite(sender.session, "friend@example.com", "enemy"), 400, "VALIDATION_FAILED", "relationship");
    expect(await t.app.db.recipientInvitation.count({ where: { senderProfileId: sender.profileId } })).toBe(0);
  });
});

describe("the sender's lists", () => {
  it("archives and unarchives pending invitations and updates relationships; another sender's are 404, no UUID 400", async () => {
    const sender = await newUser();
    const other = await newUser();
    const first = ok(await invite(sender.session, `a-${randomUUID()}@example.com`), 201);
    const second = ok(await invite(sender.session, `b-${randomUUID()}@example.com`), 201);
    expect((await invitations(sender.session)).map((invitation: any) => invitation.id)).toEqual([second.id, first.id]);

    const archived = ok(
      await t.request("POST", `/v1/recipients/invitations/${first.id}/archive`, { headers: sender.session }),
    );
    expect(archived.archived).toBe(true);
    expect((await invitations(sender.session)).map((invitation: any) => invitation.id)).toEqual([second.id]);
    expect((await invitations(sender.session, true)).map((invitation: any) => invitation.id)).toEqual([first.id]);
    expect(
      ok(await t.request("POST", `/v1/recipients/invitations/${first.id}/unarchive`, { headers: sender.session }))
        .archived,
    ).toBe(false);

    const updated = ok(
      await t.request("PATCH", `/v1/recipients/${second.id}`, {
        headers: sender.session,
        body: { relationship: "employee" },
      }),
    );
    expect(updated.relationship).toBe("employee");
    expectError(
      await t.request("PATCH", `/v1/recipients/${second.id}`, {
        headers: sender.session,
        body: { relationship: "boss" },
      }),
      400,
      "VALIDATION_FAILED",
      "relationship",
    );

    const before = await t.app.db.recipientInvitation.findMany({
      where: { senderProfileId: sender.profileId },
      orderBy: { id: "asc" },
    });
    expectError(
      await t.request("POST", `/v1/recipients/invitations/${first.id}/archive`, { headers: other.session }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await t.request("PATCH", `/v1/recipients/${second.id}`, {
        headers: other.session,
        body: { relationship: "family" },
      }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await t.request("GET", `/v1/recipients/${second.id}/eligibility`, { headers: other.session }),
      404,
      "NOT_FOUND",
    );
    expectError(
      await t.request("POST", "/v1/recipients/invitations/not-a-uuid/archive", { headers: sender.session }),
      400,
      "VALIDATION_FAILED",
      "id",
    );
    expect(
      await t.app.db.recipientInvitation.findMany({
        where: { senderProfileId: sender.profileId },
        orderBy: { id: "asc" },
      }),
    ).toEqual(before);
    expect(await invitations(other.session)).toEqual([]);
  });

  it("lists recipients and invitations a page at a time: 50 by default, then by limit and offset, newest first across pages; a limit over 100 is 400", async () => {
    const sender = await newUser();
    // More than a page of each, stored directly (each invitee would otherwise sign in to accept), with a few
    // archived invitations besides, which the default list leaves out.
    const seeded = (status: "pending" | "accepted", index: number, at: Date) => ({
      id: randomUUID(),
      senderProfileId: sender.profileId,
      email: `${status}-${index}-${randomUUID().slice(0, 8)}@example.com`,
      relationship: "friend",
      codeHash: randomUUID(),
      status,
      expiresAt: new Date(at.getTime() + 7 * 86_400_000),
      acceptedAt: status === "accepted" ? at : null,
      createdAt: status === "accepted" ? new Date(at.getTime() - 3600_000) : at,
    });
    const times = seedTimes(55);
    const accepted = times.map((at, index) => seeded("accepted", index, at));
    const pending = times.map((at, index) => seeded("pending", index, at));
    const archived = times.slice(0, 3).map((at, index) => ({ ...seeded("pending", 100 + index, at), archivedAt: at }));
    await t.app.db.recipientInvitation.createMany({ data: [...accepted, ...pending, ...archived] });
    const ids = (items: { id: string }[]) => items.map((item) => item.id);
    const connection = (field: string) => async (first: number, after?: string) => {
      const page = ok(
        await t.graphql(
          `query ($first: Int!, $after: String) { ${field}(first: $first, after: $after) { count totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
          { first, after },
          sender.session,
        ),
      ).data[field];
      return {
        ids: ids(page.edges.map((edge: { node: { id: string } }) => edge.node)),
        ...page.pageInfo,
        count: page.count,
        totalCount: page.totalCount,
      };
    };

    const readRecipients = (query: string) => t.request("GET", `/v1/recipients?${query}`, { headers: sender.session });
    expect(Object.keys(ok(await readRecipients(""))).sort()).toEqual(["pagination", "recipients"]);
    await expectPagedList(
      { read: readRecipients, ids: (body) => ids(body.recipients), connection: connection("recipients") },
      newestFirst(accepted, (row) => row.acceptedAt!),
    );
    const readInvitations = (query: string) =>
      t.request("GET", `/v1/recipients/invitations?${query}`, { headers: sender.session });
    expect(Object.keys(ok(await readInvitations(""))).sort()).toEqual(["invitations", "pagination"]);
    await expectPagedList(
      { read: readInvitations, ids: (body) => ids(body.invitations), connection: connection("recipientInvitations") },
      newestFirst(pending, (row) => row.createdAt),
    );
    expect(ok(await readInvitations("archived=true&limit=2")).pagination).toEqual({ limit: 2, offset: 0, total: 3 });
  });

  it("tells where a recipient can receive: approved KYC there, and a payout account in the fiat-account corridors", async () => {
    const sender = await newUser();
    const invitee = await newUser();
    const invited = ok(await invite(sender.session, invitee.email), 201);
    // Not accepted yet: not a recipient.
    expectError(
      await t.request("GET", `/v1/recipients/${invited.id}/eligibility`, { headers: sender.session }),
      404,
      "NOT_FOUND",
    );
    ok(await accept(invitee.session, await t.smtp.nextInvitationCode(invitee.email)));
    const eligibility = async () =>
      ok(await t.request("GET", `/v1/recipients/${invited.id}/eligibility`, { headers: sender.session }));

    const initially = await eligibility();
    expect(initially.recipientId).toBe(invited.id);
    expect(
      Object.entries(initially.corridors)
        .filter(([, state]: any) => state.canReceive)
        .map(([corridor]) => corridor),
    ).toEqual(["EU"]);

    await t.completeKyc(invitee.session, ["BR", "MX"]);
    expect((await eligibility()).corridors).toMatchObject({ BR: { canReceive: true }, MX: { canReceive: false } });
    ok(
      await t.request("POST", "/v1/mx/fiatAccounts", {
        headers: invitee.session,
        body: { type: "SPEI", accountNumber: "032180000118359719", accountName: "Ana Souza" },
      }),
    );
    expect((await eligibility()).corridors).toMatchObject({
      BR: { canReceive: true },
      MX: { canReceive: true },
      CO: { canReceive: false },
    });
  });
});

describe("who may call", () => {
  it("takes a session only; the invitee side takes no selector", async () => {
    const sender = await newUser();
    const credential = await t.createCredential(sender.session);
    rememberSecret(credential.secretKey);
    expectError(await invite({ "x-api-key": credential.secretKey }, "x@example.com"), 403, "FORBIDDEN");
    expectError(
      await t.request("GET", "/v1/recipients", { headers: { "x-public-key": credential.publicKey } }),
      403,
      "FORBIDDEN",
    );
    expectError(await t.request("GET", "/v1/recipients", {}), 401, "AUTHENTICATION_REQUIRED");
    expectError(
      await preview({ ...sender.session, "x-managed-profile-id": randomUUID() }, "code"),
      400,
      "MANAGED_PROFILE_UNSUPPORTED",
    );
    expectError(
      await accept({ ...sender.session, "x-managed-profile-id": randomUUID() }, "code"),
      400,
      "MANAGED_PROFILE_UNSUPPORTED",
    );
  });

  it("lets a manager's session invite for its child through the selector; the child's invitations are the child's", async () => {
    const manager = await newUser();
    ok(
      await t.request("PUT", `/v1/admin/managers/${manager.profileId}`, {
        headers: t.operatorHeaders,
        body: { allowedCorridors: ["BR"], isActive: true },
      }),
      201,
    );
    const child = ok(
      await t.request("POST", "/v1/managed-profiles", {
        headers: manager.session,
        body: {
          externalSubjectId: `subject-${randomUUID()}`,
          contactEmail: `child-${randomUUID()}@example.com`,
          customerType: "individual",
        },
      }),
      201,
    );
    const selecting = { ...manager.session, "x-managed-profile-id": child.managedProfile.profileId };
    const invitee = await newUser();
    const created = ok(await invite(selecting, invitee.email), 201);
    expect((await invitations(selecting)).map((invitation: any) => invitation.id)).toEqual([created.id]);
    expect(await invitations(manager.session)).toEqual([]);
    const seen = ok(await preview(invitee.session, await t.smtp.nextInvitationCode(invitee.email)));
    // A managed child has no login email to show.
    expect(seen.sender).toBe("a managed profile");
  });
});

describe("GraphQL", () => {
  it("invites, lists, archives, updates, previews, accepts and reads eligibility as REST does", async () => {
    const sender = await newUser();
    const invitee = await newUser();
    const gql = async (headers: Headers, query: string, variables: Record<string, unknown> = {}) => {
      const { body } = await t.graphql(query, variables, headers);
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      return body.data;
    };
    const { invitation } = (
      await gql(
        sender.session,
        "mutation ($email: String!) { inviteRecipient(email: $email, relationship: FAMILY) { invitation { id email relationship status archived } } }",
        { email: invitee.email },
      )
    ).inviteRecipient;
    expect(invitation).toMatchObject({
      email: invitee.email,
      relationship: "FAMILY",
      status: "PENDING",
      archived: false,
    });
    const code = await t.smtp.nextInvitationCode(invitee.email);

    const LIST =
      "query ($archived: Boolean!) { recipientInvitations(archived: $archived, first: 10) { count edges { node { id } } } }";
    expect((await gql(sender.session, LIST, { archived: false })).recipientInvitations.count).toBe(1);
    await gql(
      sender.session,
      "mutation ($id: ID!) { archiveRecipientInvitation(id: $id) { invitation { archived } } }",
      {
        id: invitation.id,
      },
    );
    expect((await gql(sender.session, LIST, { archived: true })).recipientInvitations.edges[0].node.id).toBe(
      invitation.id,
    );
    await gql(
      sender.session,
      "mutation ($id: ID!) { archiveRecipientInvitation(id: $id, archived: false) { invitation { archived } } }",
      { id: invitation.id },
    );
    expect(
      (
        await gql(
          sender.session,
          "mutation ($id: ID!) { updateRecipientRelationship(id: $id, relationship: EMPLOYEE) { relationship } }",
          { id: invitation.id },
        )
      ).updateRecipientRelationship,
    ).toEqual({ relationship: "EMPLOYEE" });

    const { recipientInvitationPreview } = await gql(
      invitee.session,
      "query ($code: String!) { recipientInvitationPreview(code: $code) { invitationId relationship } }",
      { code },
    );
    expect(recipientInvitationPreview).toEqual({ invitationId: invitation.id, relationship: "EMPLOYEE" });
    await gql(
      invitee.session,
      "mutation ($code: String!) { acceptRecipientInvitation(code: $code) { invitationId } }",
      { code },
    );
    const { recipients: page } = await gql(
      sender.session,
      "{ recipients(first: 5) { count edges { node { id email relationship } } } }",
    );
    expect(page.edges.map((edge: any) => edge.node)).toEqual([
      { id: invitation.id, email: invitee.email, relationship: "EMPLOYEE" },
    ]);
    const { recipientEligibility } = await gql(
      sender.session,
      "query ($id: ID!) { recipientEligibility(id: $id) { corridor canReceive } }",
      { id: invitation.id },
    );
    expect(recipientEligibility.filter((entry: any) => entry.canReceive).map((entry: any) => entry.corridor)).toEqual([
      "EU",
    ]);

    const refused = await t.graphql(
      "mutation ($code: String!) { acceptRecipientInvitation(code: $code) { invitationId } }",
      { code },
      invitee.session,
    );
    expect(refused.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });
});
