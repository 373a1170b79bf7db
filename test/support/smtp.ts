import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { rememberSecret } from "./secrets.js";

export interface SmtpCapture {
  url: string;
  /** Waits for the next sign-in code mailed to `email` after this call (or one already waiting). */
  nextCode(email: string, timeoutMs?: number): Promise<string>;
  /** Waits for the next recipient invitation code mailed to `email` (or one already waiting). */
  nextInvitationCode(email: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** What the capture looks for in a message, and where it keeps what it found. */
const KINDS = { signIn: /code is (\d{6})/, invitation: /invitation code is ([A-Za-z0-9_-]+)/ } as const;
const KIND_NAMES = { signIn: "code", invitation: "invitation code" } as const;
type Kind = keyof typeof KINDS;

/** A real SMTP server on loopback that keeps the codes it receives (secrets, for the log audit), per kind and recipient. */
export async function startSmtpCapture(): Promise<SmtpCapture> {
  const codes = new Map<string, string[]>();
  const waiters = new Map<string, ((code: string) => void)[]>();
  const deliver = (slot: string, code: string) => {
    const waiting = waiters.get(slot)?.shift();
    if (waiting) return waiting(code);
    codes.set(slot, [...(codes.get(slot) ?? []), code]);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let message = "";
      stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
      stream.on("end", () => {
        // Quoted-printable soft line breaks split long lines (and the codes in them).
        message = message.replace(/=\r?\n/g, "");
        // Personal data: the log audit proves no address the server mailed reaches a log.
        for (const recipient of session.envelope.rcptTo) rememberSecret(recipient.address.toLowerCase());
        for (const [kind, pattern] of Object.entries(KINDS)) {
          const code = pattern.exec(message)?.[1];
          if (!code || (kind === "signIn" && KINDS.invitation.test(message))) continue;
          rememberSecret(code);
          for (const recipient of session.envelope.rcptTo) deliver(`${kind} ${recipient.address.toLowerCase()}`, code);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const next = (kind: Kind, email: string, timeoutMs = 10_000) => {
    const address = email.trim().toLowerCase();
    const slot = `${kind} ${address}`;
    const queued = codes.get(slot)?.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${KIND_NAMES[kind]} mailed to ${address}`)), timeoutMs);
      waiters.set(slot, [
        ...(waiters.get(slot) ?? []),
        (code) => {
          clearTimeout(timer);
          resolve(code);
        },
      ]);
    });
  };
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    nextCode: (email, timeoutMs) => next("signIn", email, timeoutMs),
    nextInvitationCode: (email, timeoutMs) => next("invitation", email, timeoutMs),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
