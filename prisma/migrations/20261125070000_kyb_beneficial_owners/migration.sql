-- CreateTable
CREATE TABLE "KybBeneficialOwner" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "kycCaseId" UUID NOT NULL,
    "providerOwnerId" TEXT NOT NULL,
    "identificationDocumentId" UUID NOT NULL,
    "selfieDocumentId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KybBeneficialOwner_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "KybBeneficialOwner_identificationDocumentId_key" ON "KybBeneficialOwner"("identificationDocumentId");

-- CreateIndex
CREATE INDEX "KybBeneficialOwner_profileId_kycCaseId_idx" ON "KybBeneficialOwner"("profileId", "kycCaseId");
