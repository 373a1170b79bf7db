import { describe, expect, it } from "vitest";
import { EXPIRED_REASON, observationOf } from "../../../src/providers/avenia/kyc.js";

describe("Avenia's KYC attempt in our statuses", () => {
  it.each([
    [
      { status: "PENDING", result: "" },
      { status: "pending", reason: null },
    ],
    [
      { status: "PROCESSING", result: null },
      { status: "in_review", reason: null },
    ],
    [
      { status: "COMPLETED", result: "APPROVED", resultMessage: null },
      { status: "approved", reason: null },
    ],
    [
      { status: "COMPLETED", result: "REJECTED", resultMessage: "face match failure" },
      { status: "rejected", reason: "face match failure" },
    ],
    [
      { status: "COMPLETED", result: "REJECTED" },
      { status: "rejected", reason: null },
    ],
    [
      { status: "EXPIRED", result: null, retryable: true },
      { status: "rejected", reason: EXPIRED_REASON },
    ],
  ])("reads %o as %o", (attempt, observation) => {
    expect(observationOf(attempt)).toEqual(observation);
  });

  it.each([
    { status: "COMPLETED", result: "" },
    { status: "COMPLETED", result: "MAYBE" },
    { status: "ARCHIVED", result: null },
  ])("refuses to guess at %o: the partner said something we do not know", (attempt) => {
    expect(() => observationOf(attempt)).toThrow(
      expect.objectContaining({ name: "PartnerError", kind: "unknown", partnerCode: "unknown-attempt-status" }),
    );
  });
});
