import pino, { type LoggerOptions } from "pino";

/**
 * Every place a secret could travel through a log line. Fastify's request serializer logs no headers or
 * bodies; these paths hold if anything ever does.
 */
const REDACTED_PATHS = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'req.headers["x-public-key"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-api-key"]',
  "connectionParams",
  "*.password",
  "*.token",
  "*.secretKey",
  "*.secret_key",
  "*.refreshToken",
  "*.refresh_token",
  "*.accessToken",
  "*.access_token",
  "*.otp",
  "*.privateKey",
  "body",
];

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
}

export function createLogger(level: string, destination?: pino.DestinationStream) {
  return pino(loggerOptions(level), destination);
}
