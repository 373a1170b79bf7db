-- CreateTable
CREATE TABLE "DomesticKycFile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "profileId" TEXT NOT NULL,
    "kycCaseId" TEXT NOT NULL,
    "submissionId" TEXT NOT NULL,
    "relatedPersonId" TEXT,
    "fileType" TEXT NOT NULL,
    "storageKey" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "uploadedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "DomesticKycFile_profileId_submissionId_idx" ON "DomesticKycFile"("profileId", "submissionId");
