-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorChannel" TEXT NOT NULL,
    "actorRequestId" TEXT,
    "actorClientAddress" TEXT,
    "actorOsUser" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "details" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "AuditEvent_at_id_idx" ON "AuditEvent"("at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "AuditEvent_targetId_idx" ON "AuditEvent"("targetId");
