-- CreateIndex
CREATE INDEX "Ramp_currentPhase_startDeadline_idx" ON "Ramp"("currentPhase", "startDeadline");
