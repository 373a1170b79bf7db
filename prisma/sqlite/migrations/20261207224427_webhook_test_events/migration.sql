-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_RampEvent" (
    "sequence" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "eventId" TEXT NOT NULL,
    "rampId" TEXT,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "RampEvent_rampId_fkey" FOREIGN KEY ("rampId") REFERENCES "Ramp" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_RampEvent" ("body", "createdAt", "eventId", "eventType", "rampId", "sequence") SELECT "body", "createdAt", "eventId", "eventType", "rampId", "sequence" FROM "RampEvent";
DROP TABLE "RampEvent";
ALTER TABLE "new_RampEvent" RENAME TO "RampEvent";
CREATE UNIQUE INDEX "RampEvent_eventId_key" ON "RampEvent"("eventId");
CREATE INDEX "RampEvent_rampId_sequence_idx" ON "RampEvent"("rampId", "sequence");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
