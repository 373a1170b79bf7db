import { describe, expect, it } from "vitest";
import { CAPABILITY_MATRIX, requireCapabilities } from "../../src/auth/capabilities.js";
import type { Principal } from "../../src/auth/principal.js";

const credential = { id: "c", profileId: "p", partnerId: null, managerProfileId: null, keyDigest: "d" };
const principals: Record<Principal["kind"], Principal> = {
  anonymous: { kind: "anonymous" },
  public: { kind: "public", credential },
  secret: { kind: "secret", credential },
  session: { kind: "session", profileId: "p", sessionId: "s", expiresAt: new Date(Date.now() + 60_000) },
  operator: { kind: "operator" },
};

function outcome(capability: keyof typeof CAPABILITY_MATRIX, kind: Principal["kind"]) {
  try {
    requireCapabilities(principals[kind], [capability]);
    return "allowed";
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe("capability matrix (CONTRACT.md)", () => {
  it.each([
    ["QUOTE", ["allowed", "allowed", "allowed", "allowed", "FORBIDDEN"]],
    ["REFERENCE_DATA", ["allowed", "allowed", "allowed", "allowed", "FORBIDDEN"]],
    ["RAMP_INFO", ["CREDENTIAL_REQUIRED", "allowed", "allowed", "FORBIDDEN", "FORBIDDEN"]],
    ["EXACT_LIMITS", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    ["RAMP_OPERATIONS", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    ["ACT_FOR_MANAGED_CHILD", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    ["MANAGE_CHILD_CREDENTIALS", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    ["BR_KYC_IMPORT", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    [
      "WEBHOOK_MANAGEMENT",
      [
        "AUTHENTICATION_REQUIRED",
        "AUTHENTICATION_REQUIRED",
        "allowed",
        "AUTHENTICATION_REQUIRED",
        "AUTHENTICATION_REQUIRED",
      ],
    ],
    ["OWN_CREDENTIALS", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "FORBIDDEN", "allowed", "FORBIDDEN"]],
    ["RECIPIENTS", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "FORBIDDEN", "allowed", "FORBIDDEN"]],
    ["ACTIVE_ENTITY", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "FORBIDDEN", "allowed", "FORBIDDEN"]],
    ["MANAGED_PROFILES", ["AUTHENTICATION_REQUIRED", "FORBIDDEN", "allowed", "allowed", "FORBIDDEN"]],
    [
      "OPERATOR",
      [
        "AUTHENTICATION_REQUIRED",
        "AUTHENTICATION_REQUIRED",
        "AUTHENTICATION_REQUIRED",
        "AUTHENTICATION_REQUIRED",
        "allowed",
      ],
    ],
  ] as const)("%s: anonymous, public, secret, session, operator", (capability, expected) => {
    expect(
      (["anonymous", "public", "secret", "session", "operator"] as const).map((kind) => outcome(capability, kind)),
    ).toEqual(expected);
  });
});
