import { kybUboInput, kybDocumentInput, kybLevelOneInput } from "../../onboarding/brazil-kyb-types.js";
import { inputType } from "./input-type.js";

/* Level 1 KYB of Brazilian company subaccounts: the operations REST serves under /v1/brl/kyb. */

// The subaccount is an argument of its own, in each of these.
export const CreateBrazilKybDocumentInput = inputType(
  "CreateBrazilKybDocumentInput",
  kybDocumentInput.omit({ subAccountId: true }),
  {
    description: "A document to upload for a company subaccount's KYB.",
  },
);

export const CreateBrazilKybBeneficialOwnerInput = inputType(
  "CreateBrazilKybBeneficialOwnerInput",
  kybUboInput.omit({ subAccountId: true }),
  {
    description:
      "An ultimate beneficial owner of a company subaccount: the person's data goes to the provider and is not stored here.",
  },
);

export const SubmitBrazilKybInput = inputType("SubmitBrazilKybInput", kybLevelOneInput.omit({ subAccountId: true }), {
  description: "Level 1 KYB of a company subaccount: the company's data goes to the provider and is not stored here.",
});
