-- AlterTable
ALTER TABLE "Profile" ADD COLUMN     "contactEmail" TEXT,
ADD COLUMN     "customerType" TEXT,
ADD COLUMN     "deletedAt" TIMESTAMPTZ(3),
ADD COLUMN     "externalSubjectId" TEXT,
ADD COLUMN     "managerProfileId" UUID;

-- CreateTable
CREATE TABLE "Manager" (
    "profileId" UUID NOT NULL,
    "allowedCorridors" TEXT NOT NULL,
    "allowedCustomerTypes" TEXT,
    "isActive" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Manager_pkey" PRIMARY KEY ("profileId")
);

-- CreateTable
CREATE TABLE "CustomerEntity" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "customerType" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CustomerEntity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Partner" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Partner_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PricingAssignment" (
    "profileId" UUID NOT NULL,
    "pricingProfile" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PricingAssignment_pkey" PRIMARY KEY ("profileId")
);

-- CreateIndex
CREATE INDEX "CustomerEntity_profileId_idx" ON "CustomerEntity"("profileId");

-- CreateIndex
CREATE UNIQUE INDEX "Profile_managerProfileId_externalSubjectId_key" ON "Profile"("managerProfileId", "externalSubjectId");

-- CreateIndex
CREATE UNIQUE INDEX "Profile_managerProfileId_contactEmail_key" ON "Profile"("managerProfileId", "contactEmail");

-- AddForeignKey
ALTER TABLE "Profile" ADD CONSTRAINT "Profile_managerProfileId_fkey" FOREIGN KEY ("managerProfileId") REFERENCES "Profile"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Manager" ADD CONSTRAINT "Manager_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomerEntity" ADD CONSTRAINT "CustomerEntity_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PricingAssignment" ADD CONSTRAINT "PricingAssignment_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "Profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiCredential" ADD CONSTRAINT "ApiCredential_partnerId_fkey" FOREIGN KEY ("partnerId") REFERENCES "Partner"("id") ON DELETE SET NULL ON UPDATE CASCADE;
