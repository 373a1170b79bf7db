import { AppError } from "../errors.js";
import type { KycCustomer } from "../providers/kyc-port.js";
import type { Corridor, CustomerType } from "../reference-data/corridors.js";
import { fieldError } from "../validation.js";
import type { KycCaseRow } from "./repo.js";

/*
 * What a case row says, wherever it is read: the partner's customer and attempt it is with, and how a refusal names
 * its flow and state.
 */

/** The partner's customer of a case. */
export const customerOf = (row: KycCaseRow): KycCustomer => ({
  corridor: row.corridor as Corridor,
  customerType: row.customerType as CustomerType,
  providerCustomerId: row.providerCustomerId,
  contactEmail: row.contactEmail,
});

/** The partner's attempt of a case that has one (an open API submission). */
export function attemptOf(row: KycCaseRow): string {
  if (!row.partnerAttemptId) throw new AppError("NOT_FOUND", "Submission not found.");
  return row.partnerAttemptId;
}

/** What a case's flow is called in messages. */
export const flowName = (key: { customerType: string }) => (key.customerType === "business" ? "KYB" : "KYC");

/** A case's status as a refusal names it. */
export const statusName = (row: KycCaseRow) => row.status.replace("_", " ");

/** Another request changed the case since it was read (400: read it again). */
export function changedMeanwhile(row: KycCaseRow): AppError {
  return fieldError("country", `${flowName(row)} changed meanwhile: read its status and try again`);
}

/** The case's state allows no new submission. */
export function notOpen(row: KycCaseRow): AppError {
  return fieldError("country", `${flowName(row)} is ${statusName(row)}: no new submission is possible now`);
}
