import { GraphQLBoolean, type GraphQLScalarType } from "graphql";
import { Field, ID, ObjectType, type ClassType } from "type-graphql";
import { BrazilDocumentUpload } from "./brazil-customers.js";
import { CreatedApiCredential } from "./credentials.js";
import { DomesticCustomer, DomesticHostedLink, DomesticSubmission } from "./domestic-customers.js";
import { FiatAccount } from "./fiat-accounts.js";
import { Session } from "./identity.js";
import { Manager, Partner, PricingAssignment } from "./managed-profiles.js";
import { ActiveEntity, BrazilKycAttempt } from "./onboarding.js";
import { Quote, Ramp, WidgetSession } from "./ramps.js";
import { RecipientInvitation, RelationshipEnum } from "./recipients.js";
import { Webhook, WebhookDelivery } from "./webhooks.js";

/** What a payload's field holds: an object type, a scalar, or a registered enum (an object of its values). */
type FieldType<Value> = (new () => Value) | GraphQLScalarType<Value, Value> | Record<string, Value>;

/**
 * The payload object a mutation answers, `<Mutation>Payload` with one field so far: a payload rather than the
 * bare object lets the mutation add fields later without breaking its callers (as Relay and Apollo expect).
 */
function mutationPayload<Key extends string, Value>(
  mutation: string,
  key: Key,
  type: () => FieldType<Value>,
  description: string,
): ClassType<Record<Key, Value>> {
  class Payload {}
  Field(type, { description })(Payload.prototype, key);
  const name = `${mutation.charAt(0).toUpperCase()}${mutation.slice(1)}Payload`;
  ObjectType(name, { description: `The outcome of ${mutation}.` })(Payload);
  return Payload as ClassType<Record<Key, Value>>;
}

// Payloads of more than one field (CreateBrazilSubaccountPayload, RequestOtpPayload, ...) are classes beside their
// domain's types.

export const RecordBrazilKycAttemptPayload = mutationPayload(
  "recordBrazilKycAttempt",
  "kycAttempt",
  () => BrazilKycAttempt,
  "The recorded attempt, or the first record of the same start.",
);
export const RequestBrazilSelfieUploadPayload = mutationPayload(
  "requestBrazilSelfieUpload",
  "selfieUpload",
  () => BrazilDocumentUpload,
  "Where to PUT the selfie, and its liveness check.",
);
export const CreateBrazilKybDocumentPayload = mutationPayload(
  "createBrazilKybDocument",
  "documentUpload",
  () => BrazilDocumentUpload,
  "The opened document and where to PUT its files.",
);

export const CreateApiCredentialPayload = mutationPayload(
  "createApiCredential",
  "credential",
  () => CreatedApiCredential,
  "The new credential with its secret value, shown only this once.",
);
export const RevokeApiCredentialPayload = mutationPayload(
  "revokeApiCredential",
  "revokedCredentialId",
  () => ID,
  "The credential revoked.",
);

export const CreateDomesticIndividualCustomerPayload = mutationPayload(
  "createDomesticIndividualCustomer",
  "customer",
  () => DomesticCustomer,
  "The new individual customer.",
);
export const CreateDomesticBusinessCustomerPayload = mutationPayload(
  "createDomesticBusinessCustomer",
  "customer",
  () => DomesticCustomer,
  "The new business customer.",
);
export const SubmitDomesticKycInformationPayload = mutationPayload(
  "submitDomesticKycInformation",
  "submission",
  () => DomesticSubmission,
  "The submission to send for review.",
);
export const SendDomesticKycSubmissionPayload = mutationPayload(
  "sendDomesticKycSubmission",
  "sentSubmissionId",
  () => ID,
  "The submission sent for review.",
);
export const SubmitDomesticKybInformationPayload = mutationPayload(
  "submitDomesticKybInformation",
  "submission",
  () => DomesticSubmission,
  "The submission to send for review.",
);
export const SendDomesticKybSubmissionPayload = mutationPayload(
  "sendDomesticKybSubmission",
  "sentSubmissionId",
  () => ID,
  "The submission sent for review.",
);
export const RequestDomesticKycLinkPayload = mutationPayload(
  "requestDomesticKycLink",
  "hostedLink",
  () => DomesticHostedLink,
  "The link to the hosted KYC and its attempt.",
);
export const RequestDomesticKybLinkPayload = mutationPayload(
  "requestDomesticKybLink",
  "hostedLink",
  () => DomesticHostedLink,
  "The link to the hosted KYB and its attempt.",
);
export const ReportDomesticHostedFlowOpenedPayload = mutationPayload(
  "reportDomesticHostedFlowOpened",
  "recorded",
  () => GraphQLBoolean,
  "Always true: the opening is recorded (domesticKycStatus shows the customer's status).",
);
export const ReportDomesticHostedFlowFinishedPayload = mutationPayload(
  "reportDomesticHostedFlowFinished",
  "recorded",
  () => GraphQLBoolean,
  "Always true: the finish is recorded (domesticKycStatus shows the customer's status).",
);

export const CreateFiatAccountPayload = mutationPayload(
  "createFiatAccount",
  "fiatAccount",
  () => FiatAccount,
  "The new payout account.",
);
export const DeleteFiatAccountPayload = mutationPayload(
  "deleteFiatAccount",
  "deletedFiatAccountId",
  () => ID,
  "The payout account deleted.",
);

export const VerifyOtpPayload = mutationPayload("verifyOtp", "session", () => Session, "The new session.");
export const RefreshSessionPayload = mutationPayload(
  "refreshSession",
  "session",
  () => Session,
  "The session with a new token pair.",
);
export const LogoutPayload = mutationPayload(
  "logout",
  "loggedOut",
  () => GraphQLBoolean,
  "Always true: the sign-in has ended.",
);

export const DeleteManagedProfilePayload = mutationPayload(
  "deleteManagedProfile",
  "deletedProfileId",
  () => ID,
  "The child deleted, now or before.",
);
export const CreateManagedProfileCredentialPayload = mutationPayload(
  "createManagedProfileCredential",
  "credential",
  () => CreatedApiCredential,
  "The child's new credential with its secret value, shown only this once.",
);
export const RevokeManagedProfileCredentialPayload = mutationPayload(
  "revokeManagedProfileCredential",
  "revokedCredentialId",
  () => ID,
  "The child's credential revoked, now or before.",
);

export const CreateQuotePayload = mutationPayload("createQuote", "quote", () => Quote, "The priced quote.");
export const CreateBestQuotePayload = mutationPayload(
  "createBestQuote",
  "quote",
  () => Quote,
  "The quote of the network that pays out the most.",
);
export const CreateWidgetSessionPayload = mutationPayload(
  "createWidgetSession",
  "widgetSession",
  () => WidgetSession,
  "The new widget session and its URL.",
);

export const RegisterRampPayload = mutationPayload("registerRamp", "ramp", () => Ramp, "The registered ramp.");
export const UpdateRampPayload = mutationPayload("updateRamp", "ramp", () => Ramp, "The ramp with what was added.");
export const StartRampPayload = mutationPayload("startRamp", "ramp", () => Ramp, "The started ramp.");

export const SelectActiveEntityPayload = mutationPayload(
  "selectActiveEntity",
  "activeEntity",
  () => ActiveEntity,
  "The entity the profile acts as from now on.",
);

export const InviteRecipientPayload = mutationPayload(
  "inviteRecipient",
  "invitation",
  () => RecipientInvitation,
  "The pending invitation.",
);
export const ArchiveRecipientInvitationPayload = mutationPayload(
  "archiveRecipientInvitation",
  "invitation",
  () => RecipientInvitation,
  "The invitation, archived or restored.",
);
// The relationship as the service answers it: a string, one of the enum's values.
export const UpdateRecipientRelationshipPayload = mutationPayload<"relationship", string>(
  "updateRecipientRelationship",
  "relationship",
  () => RelationshipEnum,
  "The new relationship.",
);

export const RegisterWebhookPayload = mutationPayload(
  "registerWebhook",
  "webhook",
  () => Webhook,
  "The new subscription.",
);
export const DeleteWebhookPayload = mutationPayload(
  "deleteWebhook",
  "deletedWebhookId",
  () => ID,
  "The subscription removed with its delivery log.",
);
export const RedeliverWebhookDeliveryPayload = mutationPayload(
  "redeliverWebhookDelivery",
  "delivery",
  () => WebhookDelivery,
  "The delivery, in its new round (a PENDING one unchanged).",
);

// The operator's (/admin/graphql).
export const PutManagerPayload = mutationPayload("putManager", "manager", () => Manager, "The manager's policy now.");
export const AssignPricingProfilePayload = mutationPayload(
  "assignPricingProfile",
  "pricingAssignment",
  () => PricingAssignment,
  "The profile's pricing assignment now.",
);
export const CreatePartnerPayload = mutationPayload("createPartner", "partner", () => Partner, "The new partner.");
export const SetPartnerActivePayload = mutationPayload(
  "setPartnerActive",
  "partner",
  () => Partner,
  "The partner, activated or deactivated.",
);
export const IssuePartnerCredentialPayload = mutationPayload(
  "issuePartnerCredential",
  "credential",
  () => CreatedApiCredential,
  "The partner-managed credential with its secret value, shown only this once.",
);
