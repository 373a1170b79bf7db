import { inputType } from "./input-type.js";
import { outputType } from "./output-type.js";
import { initialKycAttemptInput, initialKycAttemptView } from "../../onboarding/kyc-attempts.js";
import { onboardingStatusView } from "../../onboarding/types.js";

export const OnboardingStatus = outputType(onboardingStatusView);

export const BrazilKycAttempt = outputType(initialKycAttemptView);

export const RecordBrazilKycAttemptInput = inputType("RecordBrazilKycAttemptInput", initialKycAttemptInput, {
  description:
    "The quote (and widget session) Brazilian KYC starts from, and the CPF or CNPJ given: only checked for form, never kept.",
});
