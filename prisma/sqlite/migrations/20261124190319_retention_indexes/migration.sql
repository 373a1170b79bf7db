-- CreateIndex
CREATE INDEX "IdempotencyRecord_state_updatedAt_idx" ON "IdempotencyRecord"("state", "updatedAt");

-- CreateIndex
CREATE INDEX "OtpChallenge_expiresAt_idx" ON "OtpChallenge"("expiresAt");

-- CreateIndex
CREATE INDEX "Quote_consumedAt_expiresAt_idx" ON "Quote"("consumedAt", "expiresAt");

-- CreateIndex
CREATE INDEX "RecipientInvitation_status_expiresAt_idx" ON "RecipientInvitation"("status", "expiresAt");

-- CreateIndex
CREATE INDEX "RefreshToken_expiresAt_idx" ON "RefreshToken"("expiresAt");

-- CreateIndex
CREATE INDEX "SessionFamily_revokedAt_idx" ON "SessionFamily"("revokedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_updatedAt_idx" ON "WebhookDelivery"("status", "updatedAt");

-- CreateIndex
CREATE INDEX "WidgetSession_quoteId_idx" ON "WidgetSession"("quoteId");
