import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { rememberSecret } from "./secrets.js";

export interface SmtpCapture {
  url: string;
  /** Waits for the next code mailed to `email` after this call (or one already waiting). */
  nextCode(email: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps the sign-in codes it receives, per recipient. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const codes = new Map<string, string[]>();
  const waiters = new Map<string, ((code: string) => void)[]>();
  const deliver = (recipient: string, code: string) => {
    const waiting = waiters.get(recipient)?.shift();
    if (waiting) return waiting(code);
    codes.set(recipient, [...(codes.get(recipient) ?? []), code]);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let message = "";
      stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
      stream.on("end", () => {
        const code = /code is (\d{6})/.exec(message)?.[1];
        if (code) {
          rememberSecret(code);
          for (const recipient of session.envelope.rcptTo) deliver(recipient.address.toLowerCase(), code);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    nextCode(email, timeoutMs = 10_000) {
      const key = email.trim().toLowerCase();
      const queued = codes.get(key)?.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no code mailed to ${key}`)), timeoutMs);
        waiters.set(key, [
          ...(waiters.get(key) ?? []),
          (code) => {
            clearTimeout(timer);
            resolve(code);
          },
        ]);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
