-- CreateTable
CREATE TABLE "KybBeneficialOwner" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "profileId" TEXT NOT NULL,
    "kycCaseId" TEXT NOT NULL,
    "providerOwnerId" TEXT NOT NULL,
    "identificationDocumentId" TEXT NOT NULL,
    "selfieDocumentId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "KybBeneficialOwner_identificationDocumentId_key" ON "KybBeneficialOwner"("identificationDocumentId");

-- CreateIndex
CREATE INDEX "KybBeneficialOwner_profileId_kycCaseId_idx" ON "KybBeneficialOwner"("profileId", "kycCaseId");
