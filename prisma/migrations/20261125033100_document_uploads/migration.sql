-- CreateTable
CREATE TABLE "DocumentUpload" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "kycCaseId" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "documentType" TEXT NOT NULL,
    "side" TEXT NOT NULL,
    "contentTypes" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "status" TEXT NOT NULL,
    "storageKey" TEXT,
    "contentType" TEXT,
    "sizeBytes" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uploadedAt" TIMESTAMPTZ(3),

    CONSTRAINT "DocumentUpload_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DocumentUpload_profileId_documentId_idx" ON "DocumentUpload"("profileId", "documentId");

-- CreateIndex
CREATE UNIQUE INDEX "DocumentUpload_documentId_side_key" ON "DocumentUpload"("documentId", "side");
