-- CreateTable
CREATE TABLE "DocumentUpload" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "documentId" TEXT NOT NULL,
    "profileId" TEXT NOT NULL,
    "kycCaseId" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "documentType" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "contentTypes" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "storageKey" TEXT,
    "contentType" TEXT,
    "sizeBytes" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uploadedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "DocumentUpload_profileId_documentId_idx" ON "DocumentUpload"("profileId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "DocumentUpload_documentId_side_key" ON "DocumentUpload"("documentId", "side");
