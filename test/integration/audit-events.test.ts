import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_TARGET_TYPES, OPERATOR_ACTIONS } from "../../src/audit/types.js";
import { startTestApp, type TestApp } from "../support/app.js";
import {
  callersOtherThanTheOperator,
  expectError,
  expectPagedList,
  newestFirst,
  ok,
  seedTimes,
} from "../support/kit.js";
import { rememberSecret } from "../support/secrets.js";

/**
 * The operator's audit log (issue 13): every change made on the operator surface (REST, GraphQL, the CLI's
 * services) records one event, in the change's own transaction, with who, what and when; refused and failed
 * changes record nothing. `GET /v1/admin/audit-events` and the `auditEvents` query (`/admin/graphql`) read
 * it, newest first.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

type Headers = Record<string, string>;

interface AuditEvent {
  id: string;
  at: string;
  actor: { channel: string; requestId: string | null; clientAddress: string | null; osUser: string | null };
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The operator's headers, with a request id of our choosing so the event can be told to name it. */
const operator = (requestId: string): Headers => ({ ...t.operatorHeaders, "x-request-id": requestId });

const admin = (method: string, path: string, body?: unknown, headers: Headers = t.operatorHeaders) =>
  t.request(method, path, { headers, ...(body !== undefined && { body }) });

const listEvents = (query = "", headers: Headers = t.operatorHeaders) =>
  t.request("GET", `/v1/admin/audit-events${query && `?${query}`}`, { headers });

/** Every event, newest first, a page of 100 at a time. */
async function allEvents(): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = ok(await listEvents(`limit=100&offset=${offset}`));
    events.push(...page.events);
    if (events.length >= page.pagination.total) return events;
  }
}

/** Runs `change` and answers what it answered and the events it recorded (those that were not there before). */
async function recordedBy<T>(change: () => Promise<T>): Promise<{ answer: T; recorded: AuditEvent[] }> {
  const before = new Set((await allEvents()).map((event) => event.id));
  const answer = await change();
  return { answer, recorded: (await allEvents()).filter((event) => !before.has(event.id)) };
}

/** Runs `change`, which must record exactly one event, and answers it. */
async function recordsOne(change: () => Promise<{ status: number; body: any }>, status = 200): Promise<AuditEvent> {
  const { answer, recorded } = await recordedBy(change);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(recorded).toHaveLength(1);
  return recorded[0]!;
}

/** Runs `change`, which must be refused with `code` and record nothing. */
async function recordsNothing(label: string, change: () => Promise<{ status: number; body: any }>, code: string) {
  const { answer, recorded } = await recordedBy(change);
  const answered = answer.body.error?.code ?? answer.body.errors?.[0]?.extensions?.code;
  expect(answered, `${label}: ${JSON.stringify(answer.body)}`).toBe(code);
  expect(recorded, label).toEqual([]);
}

const restActor = (requestId: string) => ({ channel: "rest", requestId, clientAddress: "127.0.0.1", osUser: null });
const graphqlActor = (requestId: string) => ({
  channel: "graphql",
  requestId,
  clientAddress: "127.0.0.1",
  osUser: null,
});

async function createPartner(name = `Audit partner ${randomUUID().slice(0, 8)}`): Promise<{ id: string }> {
  return ok(await admin("POST", "/v1/admin/partners", { name }), 201).partner;
}

/** An active manager with a managed child: the child's profile id. */
async function managedChild(): Promise<string> {
  const manager = await t.signIn();
  ok(await admin("PUT", `/v1/admin/managers/${manager.profileId}`, { allowedCorridors: ["BR"], isActive: true }), 201);
  const created = await t.request("POST", "/v1/managed-profiles", {
    headers: manager.headers,
    body: { externalSubjectId: randomUUID(), contactEmail: `${randomUUID()}@example.com`, customerType: "individual" },
  });
  return ok(created, 201).managedProfile.profileId;
}

const AUDIT_EVENT_FIELDS = "id at action targetType targetId details actor { channel requestId clientAddress osUser }";
const AUDIT_EVENTS = `query ($action: AuditAction, $targetId: ID, $first: Int!, $after: String) {
  auditEvents(action: $action, targetId: $targetId, first: $first, after: $after) {
    edges { node { ${AUDIT_EVENT_FIELDS} } } pageInfo { hasNextPage endCursor }
  }
}`;

/** GraphQL's name of an action or target type: manager.created is MANAGER_CREATED, pricing-assignment PRICING_ASSIGNMENT. */
const graphqlName = (value: string) => value.replace(/[.-]/g, "_").toUpperCase();
/** The REST value of a GraphQL enum name among `values`. */
const restValue = (values: readonly string[], name: string) => values.find((value) => graphqlName(value) === name);

/** The events the GraphQL query answers, under the REST shape (its enums as REST spells them). */
async function graphqlEvents(variables: Record<string, unknown>): Promise<AuditEvent[]> {
  const answer = await t.adminGraphql(AUDIT_EVENTS, { first: 100, ...variables }, t.operatorHeaders);
  expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
  return answer.body.data.auditEvents.edges.map(({ node }: { node: AuditEvent }) => ({
    ...node,
    action: restValue(OPERATOR_ACTIONS, node.action),
    targetType: restValue(AUDIT_TARGET_TYPES, node.targetType),
    actor: { ...node.actor, channel: node.actor.channel.toLowerCase() },
  }));
}

describe("operator changes over REST", () => {
  it("each records exactly one event: the request that made it, the action, the target and what it set; in order", async () => {
    const { profileId } = await t.signIn();
    const steps: AuditEvent[] = [];

    steps.push(
      await recordsOne(
        () =>
          admin(
            "PUT",
            `/v1/admin/managers/${profileId}`,
            { allowedCorridors: ["BR", "MX"], allowedCustomerTypes: ["individual"], isActive: true },
            operator("audit-manager-created"),
          ),
        201,
      ),
    );
    expect(steps.at(-1)).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(ISO),
      actor: restActor("audit-manager-created"),
      action: "manager.created",
      targetType: "manager",
      targetId: profileId,
      details: { allowedCorridors: ["BR", "MX"], allowedCustomerTypes: ["individual"], isActive: true },
    });

    steps.push(
      await recordsOne(() =>
        admin(
          "PUT",
          `/v1/admin/managers/${profileId}`,
          { allowedCorridors: ["US"], isActive: false },
          operator("audit-manager-updated"),
        ),
      ),
    );
    expect(steps.at(-1)).toMatchObject({
      actor: restActor("audit-manager-updated"),
      action: "manager.updated",
      targetType: "manager",
      targetId: profileId,
      details: { allowedCorridors: ["US"], allowedCustomerTypes: null, isActive: false },
    });

    steps.push(
      await recordsOne(() =>
        admin(
          "PUT",
          `/v1/admin/pricing-assignments/${profileId}`,
          { pricingProfile: "reduced" },
          operator("audit-pricing"),
        ),
      ),
    );
    expect(steps.at(-1)).toMatchObject({
      actor: restActor("audit-pricing"),
      action: "pricing.assigned",
      targetType: "pricing-assignment",
      targetId: profileId,
      details: { pricingProfile: "reduced" },
    });

    steps.push(
      await recordsOne(
        () => admin("POST", "/v1/admin/partners", { name: "Audited Partner" }, operator("audit-partner-created")),
        201,
      ),
    );
    const partnerId = steps.at(-1)!.targetId;
    expect(steps.at(-1)).toMatchObject({
      actor: restActor("audit-partner-created"),
      action: "partner.created",
      targetType: "partner",
      details: { isActive: true },
    });

    steps.push(
      await recordsOne(() =>
        admin("PATCH", `/v1/admin/partners/${partnerId}`, { isActive: false }, operator("audit-partner-off")),
      ),
    );
    expect(steps.at(-1)).toMatchObject({
      actor: restActor("audit-partner-off"),
      action: "partner.deactivated",
      targetType: "partner",
      targetId: partnerId,
      details: { isActive: false },
    });
    steps.push(
      await recordsOne(() =>
        admin("PATCH", `/v1/admin/partners/${partnerId}`, { isActive: true }, operator("audit-partner-on")),
      ),
    );
    expect(steps.at(-1)).toMatchObject({
      action: "partner.activated",
      targetId: partnerId,
      details: { isActive: true },
    });

    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    steps.push(
      await recordsOne(
        () =>
          admin(
            "POST",
            `/v1/admin/partners/${partnerId}/api-credentials`,
            { profileId, name: "audited key", expiresAt },
            operator("audit-credential"),
          ),
        201,
      ),
    );
    const credential = await t.app.db.apiCredential.findFirstOrThrow({ where: { partnerId } });
    expect(steps.at(-1)).toEqual({
      id: expect.any(String),
      at: expect.stringMatching(ISO),
      actor: restActor("audit-credential"),
      action: "partner.credential.issued",
      targetType: "api-credential",
      targetId: credential.id,
      details: { partnerId, profileId, expiresAt },
    });

    // In the order they were made: times never go back, and the list is newest first (equal times by id).
    const times = steps.map((step) => Date.parse(step.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const listed = ok(await listEvents(`limit=${steps.length}`));
    expect(listed.pagination).toEqual({ limit: steps.length, offset: 0, total: expect.any(Number) });
    expect(listed.events).toEqual(
      newestFirst(steps, (step) => new Date(step.at)).map((id) => steps.find((step) => step.id === id)),
    );
    // Unless two changes share a millisecond, that is the reverse of the order they were made in.
    if (new Set(times).size === times.length) expect(listed.events).toEqual([...steps].reverse());
  });

  it("a refused change records nothing: validation errors, unknown targets, the credential cap", async () => {
    const { profileId } = await t.signIn();
    const partner = await createPartner();
    const child = await managedChild();
    const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
      [
        "an unknown corridor",
        () => admin("PUT", `/v1/admin/managers/${profileId}`, { allowedCorridors: ["XX"], isActive: true }),
        "VALIDATION_FAILED",
      ],
      [
        "a managed child as manager",
        () => admin("PUT", `/v1/admin/managers/${child}`, { allowedCorridors: ["BR"], isActive: true }),
        "VALIDATION_FAILED",
      ],
      [
        "an unknown manager profile",
        () => admin("PUT", `/v1/admin/managers/${randomUUID()}`, { allowedCorridors: ["BR"], isActive: true }),
        "NOT_FOUND",
      ],
      [
        "an unknown pricing profile",
        () => admin("PUT", `/v1/admin/pricing-assignments/${profileId}`, { pricingProfile: "Not Valid" }),
        "VALIDATION_FAILED",
      ],
      [
        "pricing for an unknown profile",
        () => admin("PUT", `/v1/admin/pricing-assignments/${randomUUID()}`, { pricingProfile: "reduced" }),
        "NOT_FOUND",
      ],
      ["a partner without a name", () => admin("POST", "/v1/admin/partners", { name: "" }), "VALIDATION_FAILED"],
      [
        "a partner state not a boolean",
        () => admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: "no" }),
        "VALIDATION_FAILED",
      ],
      [
        "an unknown partner",
        () => admin("PATCH", `/v1/admin/partners/${randomUUID()}`, { isActive: false }),
        "NOT_FOUND",
      ],
      [
        "a credential of an unknown partner",
        () => admin("POST", `/v1/admin/partners/${randomUUID()}/api-credentials`, { profileId }),
        "NOT_FOUND",
      ],
      [
        "a credential without a subject",
        () => admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId: randomUUID() }),
        "CREDENTIAL_SUBJECT_REQUIRED",
      ],
      [
        "a credential name too long",
        () => admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId, name: "x".repeat(101) }),
        "INVALID_CREDENTIAL_NAME",
      ],
      [
        "putManager with an unknown corridor (GraphQL)",
        () =>
          t.adminGraphql(
            "mutation ($id: ID!) { putManager(profileId: $id, policy: { allowedCorridors: [BR], allowedCustomerTypes: [], isActive: true }) { manager { profileId } } }",
            { id: profileId },
            t.operatorHeaders,
          ),
        "VALIDATION_FAILED",
      ],
      [
        "setPartnerActive of an unknown partner (GraphQL)",
        () =>
          t.adminGraphql(
            "mutation ($id: ID!) { setPartnerActive(partnerId: $id, isActive: false) { partner { id } } }",
            { id: randomUUID() },
            t.operatorHeaders,
          ),
        "NOT_FOUND",
      ],
    ];
    for (const [label, change, code] of cases) await recordsNothing(label, change, code);

    // The cap of 5 active credentials is decided inside the issuing transaction: the refusal records nothing.
    for (let i = 0; i < 5; i++) {
      const issued = await admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId });
      rememberSecret(ok(issued, 201).secretKey);
    }
    await recordsNothing(
      "a sixth credential",
      () => admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId }),
      "CREDENTIAL_LIMIT_REACHED",
    );
  });

  it("a change whose event cannot be written does not happen (one transaction)", async () => {
    const { profileId } = await t.signIn();
    const partner = await createPartner();
    const engine = t.database.url ? "postgresql" : "sqlite";
    const statements =
      engine === "postgresql"
        ? [
            "CREATE FUNCTION refuse_audit_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit event refused'; END $$",
            'CREATE TRIGGER refuse_audit_event BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION refuse_audit_event()',
          ]
        : [
            "CREATE TRIGGER refuse_audit_event BEFORE INSERT ON \"AuditEvent\" BEGIN SELECT RAISE(ABORT, 'audit event refused'); END",
          ];
    const activeKey = t.app.signingKeys.info().id;
    for (const statement of statements) await t.app.db.$executeRawUnsafe(statement);
    try {
      const failing: [string, () => Promise<{ status: number; body: any }>][] = [
        [
          "PUT manager",
          () => admin("PUT", `/v1/admin/managers/${profileId}`, { allowedCorridors: ["BR"], isActive: true }),
        ],
        [
          "PUT pricing",
          () => admin("PUT", `/v1/admin/pricing-assignments/${profileId}`, { pricingProfile: "reduced" }),
        ],
        ["POST partner", () => admin("POST", "/v1/admin/partners", { name: "Never Created" })],
        ["PATCH partner", () => admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false })],
        [
          "POST partner credential",
          () => admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, { profileId }),
        ],
      ];
      for (const [label, change] of failing) {
        const answer = await change();
        expect(answer.status, `${label}: ${JSON.stringify(answer.body)}`).toBe(500);
        expectError(answer, 500, "INTERNAL");
      }
      await expect(t.app.signingKeys.rotate({ channel: "cli", osUser: "auditor" })).rejects.toThrow();
    } finally {
      const drops =
        engine === "postgresql"
          ? ['DROP TRIGGER refuse_audit_event ON "AuditEvent"', "DROP FUNCTION refuse_audit_event()"]
          : ["DROP TRIGGER refuse_audit_event"];
      for (const statement of drops) await t.app.db.$executeRawUnsafe(statement);
    }
    expect(await t.app.db.manager.count({ where: { profileId } })).toBe(0);
    expect(await t.app.db.pricingAssignment.count({ where: { profileId } })).toBe(0);
    expect(await t.app.db.partner.count({ where: { name: "Never Created" } })).toBe(0);
    expect((await t.app.db.partner.findUniqueOrThrow({ where: { id: partner.id } })).isActive).toBe(true);
    expect(await t.app.db.apiCredential.count({ where: { partnerId: partner.id } })).toBe(0);
    expect(t.app.signingKeys.info().id).toBe(activeKey);
    expect((await t.app.db.signingKey.findUniqueOrThrow({ where: { activeSlot: "active" } })).id).toBe(activeKey);
  });
});

describe("operator changes over GraphQL", () => {
  it("each records exactly one event naming the GraphQL request", async () => {
    const { profileId } = await t.signIn();
    const gql = (requestId: string, query: string, variables: Record<string, unknown>) => async () => {
      const answer = await t.adminGraphql(query, variables, operator(requestId));
      expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
      return answer;
    };

    expect(
      await recordsOne(
        gql(
          "gql-manager",
          "mutation ($id: ID!) { putManager(profileId: $id, policy: { allowedCorridors: [MX, BR], isActive: true }) { manager { profileId } } }",
          { id: profileId },
        ),
      ),
    ).toMatchObject({
      actor: graphqlActor("gql-manager"),
      action: "manager.created",
      targetType: "manager",
      targetId: profileId,
      details: { allowedCorridors: expect.arrayContaining(["BR", "MX"]), allowedCustomerTypes: null, isActive: true },
    });
    expect(
      await recordsOne(
        gql(
          "gql-pricing",
          "mutation ($id: ID!) { assignPricingProfile(profileId: $id, pricingProfile: ZERO_FEE) { pricingAssignment { profileId } } }",
          { id: profileId },
        ),
      ),
    ).toMatchObject({
      actor: graphqlActor("gql-pricing"),
      action: "pricing.assigned",
      targetId: profileId,
      details: { pricingProfile: "zero-fee" },
    });
    const created = await recordsOne(
      gql("gql-partner", 'mutation { createPartner(name: "GraphQL Audited") { partner { id } } }', {}),
    );
    expect(created).toMatchObject({
      actor: graphqlActor("gql-partner"),
      action: "partner.created",
      targetType: "partner",
    });
    expect(
      await recordsOne(
        gql(
          "gql-partner-off",
          "mutation ($id: ID!) { setPartnerActive(partnerId: $id, isActive: false) { partner { id } } }",
          {
            id: created.targetId,
          },
        ),
      ),
    ).toMatchObject({
      actor: graphqlActor("gql-partner-off"),
      action: "partner.deactivated",
      targetId: created.targetId,
    });
    await admin("PATCH", `/v1/admin/partners/${created.targetId}`, { isActive: true });
    const issued = await recordsOne(
      gql(
        "gql-credential",
        "mutation ($id: ID!, $p: ID!) { issuePartnerCredential(partnerId: $id, input: { profileId: $p }) { credential { secretKey credential { id } } } }",
        { id: created.targetId, p: profileId },
      ),
    );
    const credential = await t.app.db.apiCredential.findFirstOrThrow({ where: { partnerId: created.targetId } });
    expect(issued).toMatchObject({
      actor: graphqlActor("gql-credential"),
      action: "partner.credential.issued",
      targetType: "api-credential",
      targetId: credential.id,
      details: { partnerId: created.targetId, profileId, expiresAt: credential.expiresAt.toISOString() },
    });

    // The auditEvents query answers what REST does.
    expect(await graphqlEvents({ targetId: profileId })).toEqual(ok(await listEvents(`targetId=${profileId}`)).events);
  });
});

describe("signing-key rotation", () => {
  it("records the rotation with the operator who asked for it and the key it retired", async () => {
    const retired = t.app.signingKeys.info().id;
    const { answer: rotated, recorded } = await recordedBy(() =>
      t.app.signingKeys.rotate({ channel: "cli", osUser: "auditor" }),
    );
    expect(recorded).toEqual([
      {
        id: expect.any(String),
        at: expect.stringMatching(ISO),
        actor: { channel: "cli", requestId: null, clientAddress: null, osUser: "auditor" },
        action: "signing-key.rotated",
        targetType: "signing-key",
        targetId: rotated.id,
        details: { retiredKeyId: retired },
      },
    ]);
  });
});

describe("GET /v1/admin/audit-events", () => {
  it("pages newest first like every list (50 by default, limit 1 to 100, offset), on REST and GraphQL", async () => {
    const targetId = randomUUID();
    const rows = seedTimes(55).map((at, index) => ({
      id: randomUUID(),
      at,
      actorChannel: "cli",
      actorOsUser: "seeder",
      action: index % 2 ? "partner.activated" : "partner.deactivated",
      targetType: "partner",
      targetId,
      details: JSON.stringify({ isActive: index % 2 === 1 }),
    }));
    await t.app.db.auditEvent.createMany({ data: rows });
    const ids = (events: { id: string }[]) => events.map((event) => event.id);
    const read = (query: string) => listEvents(`targetId=${targetId}${query && `&${query}`}`);
    expect(Object.keys(ok(await read(""))).sort()).toEqual(["events", "pagination"]);
    await expectPagedList(
      {
        read,
        ids: (body) => ids(body.events),
        connection: async (first, after) => {
          const answer = ok(await t.adminGraphql(AUDIT_EVENTS, { targetId, first, after }, t.operatorHeaders));
          expect(answer.errors, JSON.stringify(answer)).toBeUndefined();
          const { edges, pageInfo } = answer.data.auditEvents;
          return { ids: ids(edges.map((edge: { node: { id: string } }) => edge.node)), ...pageInfo };
        },
      },
      newestFirst(rows, (row) => row.at),
    );
  });

  it("filters by action and by target; both together narrow further", async () => {
    const partner = await createPartner();
    ok(await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false }));
    ok(await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: true }));
    ok(await admin("PATCH", `/v1/admin/partners/${partner.id}`, { isActive: false }));

    const byTarget = ok(await listEvents(`targetId=${partner.id}`));
    expect(byTarget.events.map((event: AuditEvent) => event.action)).toEqual([
      "partner.deactivated",
      "partner.activated",
      "partner.deactivated",
      "partner.created",
    ]);
    expect(byTarget.pagination).toEqual({ limit: 50, offset: 0, total: 4 });
    // Ids are compared as the database spells them.
    expect(ok(await listEvents(`targetId=${partner.id.toUpperCase()}`)).events).toEqual(byTarget.events);

    const both = ok(await listEvents(`targetId=${partner.id}&action=partner.deactivated`));
    expect(both.events).toEqual(byTarget.events.filter((event: AuditEvent) => event.action === "partner.deactivated"));
    expect(both.pagination.total).toBe(2);

    const created = ok(await listEvents("action=partner.created&limit=100"));
    expect(created.events.length).toBeGreaterThan(0);
    expect(created.events.every((event: AuditEvent) => event.action === "partner.created")).toBe(true);
    expect(created.events.map((event: AuditEvent) => event.targetId)).toContain(partner.id);
    expect(await graphqlEvents({ action: graphqlName("partner.created") })).toEqual(created.events);

    expect(ok(await listEvents(`targetId=${randomUUID()}`))).toEqual({
      events: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
  });

  it("refuses unknown actions, malformed targets and pages out of range with 400 VALIDATION_FAILED", async () => {
    expectError(await listEvents("action=partner.renamed"), 400, "VALIDATION_FAILED", "action");
    expectError(await listEvents("action="), 400, "VALIDATION_FAILED", "action");
    expectError(await listEvents("targetId=not-a-uuid"), 400, "VALIDATION_FAILED", "targetId");
    expectError(await listEvents("limit=101"), 400, "VALIDATION_FAILED", "limit");
    expectError(await listEvents("limit=0"), 400, "VALIDATION_FAILED", "limit");
    expectError(await listEvents("offset=-1"), 400, "VALIDATION_FAILED", "offset");
    // GraphQL's action is an enum: an unknown one fails the variables' validation.
    const unknownAction = await t.adminGraphql(
      AUDIT_EVENTS,
      { action: "PARTNER_RENAMED", first: 5 },
      t.operatorHeaders,
    );
    expect(unknownAction.body.errors[0].extensions).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    expect(unknownAction.body.errors[0].message).toMatch(/"PARTNER_RENAMED" does not exist in "AuditAction" enum/);
  });

  it("is the operator's only: every other caller gets the refusal other admin routes give", async () => {
    const session = await t.signIn();
    const key = await t.createCredential(session.headers);
    const operatorToken = t.operatorHeaders.authorization.slice("Bearer ".length);
    const callers = callersOtherThanTheOperator(session.headers, key, operatorToken);
    for (const [label, headers, code] of callers) {
      // Authentication comes first: an invalid query is not looked at.
      for (const query of ["", "limit=101"]) {
        const response = await listEvents(query, headers);
        expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(401);
        expect(response.body.error.code, label).toBe(code);
      }
      const viaGraphql = await t.adminGraphql(AUDIT_EVENTS, { first: 5 }, headers);
      expect(viaGraphql.status, label).toBe(401);
      expect(viaGraphql.body.errors[0].extensions.code, label).toBe(code);
      expect(viaGraphql.body.data ?? null, label).toBeNull();
    }
  });

  it("holds no secret and no personal data: no key values, tokens, emails or names", async () => {
    const email = `audit-${randomUUID().slice(0, 8)}@example.com`;
    const { profileId } = await t.signIn(email);
    ok(await admin("PUT", `/v1/admin/managers/${profileId}`, { allowedCorridors: ["BR"], isActive: true }), 201);
    const partner = await createPartner("Secretive Partner Name");
    const issued = ok(
      await admin("POST", `/v1/admin/partners/${partner.id}/api-credentials`, {
        profileId,
        name: "Secretive Credential Name",
      }),
      201,
    );
    rememberSecret(issued.secretKey);
    await t.app.signingKeys.rotate({ channel: "cli", osUser: "auditor" });

    const everything = JSON.stringify(await allEvents());
    expect(everything).toContain(issued.id);
    for (const [what, value] of [
      ["the secret key", issued.secretKey],
      ["the secret key's prefix", issued.secretKeyPrefix],
      ["the public key", issued.publicKey],
      ["the operator token", t.operatorHeaders.authorization.slice("Bearer ".length)],
      ["the partner's name", "Secretive Partner Name"],
      ["the credential's name", "Secretive Credential Name"],
      ["the signing key", "PUBLIC KEY"],
      ["an email", "@"],
    ]) {
      expect(everything.includes(value), what).toBe(false);
    }
  });
});
