-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorChannel" TEXT NOT NULL,
    "actorRequestId" TEXT,
    "actorClientAddress" TEXT,
    "actorOsUser" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" UUID NOT NULL,
    "details" TEXT NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_at_id_idx" ON "AuditEvent"("at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_targetId_idx" ON "AuditEvent"("targetId");
