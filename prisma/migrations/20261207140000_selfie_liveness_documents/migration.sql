-- AlterTable
ALTER TABLE "DocumentUpload" ADD COLUMN     "partnerDocumentId" TEXT;
