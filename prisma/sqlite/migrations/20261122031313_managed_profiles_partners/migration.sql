-- CreateTable
CREATE TABLE "Manager" (
    "profileId" TEXT NOT NULL PRIMARY KEY,
    "allowedCorridors" TEXT NOT NULL,
    "allowedCustomerTypes" TEXT,
    "isActive" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Manager_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CustomerEntity" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "profileId" TEXT NOT NULL,
    "customerType" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "CustomerEntity_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Partner" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PricingAssignment" (
    "profileId" TEXT NOT NULL PRIMARY KEY,
    "pricingProfile" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PricingAssignment_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiCredential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "profileId" TEXT NOT NULL,
    "partnerId" TEXT,
    "environment" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "secretKeyPrefix" TEXT NOT NULL,
    "secretKeyHash" TEXT NOT NULL,
    "publicLastUsedAt" DATETIME,
    "secretLastUsedAt" DATETIME,
    "expiresAt" DATETIME NOT NULL,
    "revokedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ApiCredential_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ApiCredential_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_ApiCredential" ("createdAt", "environment", "expiresAt", "id", "name", "partnerId", "profileId", "publicKey", "publicLastUsedAt", "revokedAt", "secretKeyHash", "secretKeyPrefix", "secretLastUsedAt", "updatedAt") SELECT "createdAt", "environment", "expiresAt", "id", "name", "partnerId", "profileId", "publicKey", "publicLastUsedAt", "revokedAt", "secretKeyHash", "secretKeyPrefix", "secretLastUsedAt", "updatedAt" FROM "ApiCredential";
DROP TABLE "ApiCredential";
ALTER TABLE "new_ApiCredential" RENAME TO "ApiCredential";
CREATE UNIQUE INDEX "ApiCredential_publicKey_key" ON "ApiCredential"("publicKey");
CREATE UNIQUE INDEX "ApiCredential_secretKeyHash_key" ON "ApiCredential"("secretKeyHash");
CREATE INDEX "ApiCredential_profileId_createdAt_idx" ON "ApiCredential"("profileId", "createdAt");
CREATE TABLE "new_Profile" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "email" TEXT,
    "credentialsRevision" INTEGER NOT NULL DEFAULT 0,
    "managerProfileId" TEXT,
    "externalSubjectId" TEXT,
    "contactEmail" TEXT,
    "customerType" TEXT,
    "deletedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Profile_managerProfileId_fkey" FOREIGN KEY ("managerProfileId") REFERENCES "Profile" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Profile" ("createdAt", "credentialsRevision", "email", "id", "updatedAt") SELECT "createdAt", "credentialsRevision", "email", "id", "updatedAt" FROM "Profile";
DROP TABLE "Profile";
ALTER TABLE "new_Profile" RENAME TO "Profile";
CREATE UNIQUE INDEX "Profile_email_key" ON "Profile"("email");
CREATE UNIQUE INDEX "Profile_managerProfileId_externalSubjectId_key" ON "Profile"("managerProfileId", "externalSubjectId");
CREATE UNIQUE INDEX "Profile_managerProfileId_contactEmail_key" ON "Profile"("managerProfileId", "contactEmail");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CustomerEntity_profileId_idx" ON "CustomerEntity"("profileId");
