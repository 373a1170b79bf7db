-- CreateTable
CREATE TABLE "DomesticKycFile" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "kycCaseId" UUID NOT NULL,
    "submissionId" UUID NOT NULL,
    "relatedPersonId" UUID,
    "fileType" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "uploadedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "DomesticKycFile_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DomesticKycFile_profileId_submissionId_idx" ON "DomesticKycFile"("profileId", "submissionId");
