/** What a partner's callback says, read from its envelope: which object changed, to which status, and whose it is. */
export interface PartnerCallbackFacts {
  /** ticket or kycAttempt (Avenia); onramp, offramp, kyc or kyb (Alfredpay). */
  subjectKind: string;
  /** The partner's id of the object (a ticket or attempt id, a transactionId or submissionId). */
  subjectId: string;
  /** Its status, as the partner wrote it. */
  partnerStatus: string;
  /** The partner's customer the object belongs to (Avenia's subaccount, Alfredpay's customerId). */
  partnerCustomerId: string;
  /** When the partner last changed the object, where the callback's freshness rests on it (Avenia signs no time). */
  updatedAt?: string;
}
