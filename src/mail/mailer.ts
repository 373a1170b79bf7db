import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Config } from "../config.js";

interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise (never in production: config refuses) each
 * message is written as an .eml file under the data directory and only its path is logged.
 */
export function createMailer(settings: Config["mail"], log: Logger): Mailer {
  if (settings.smtpUrl) {
    const transport = nodemailer.createTransport(settings.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: settings.from, ...mail });
      },
      close: () => transport.close(),
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(mail) {
      const { message } = await transport.sendMail({ from: settings.from, ...mail });
      await mkdir(settings.outboxDir, { recursive: true });
      const file = join(settings.outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`);
      await writeFile(file, message as Buffer, { mode: 0o600 });
      log.info({ file }, "mail written to the local outbox (no SMTP_URL configured)");
    },
    close: () => transport.close(),
  };
}
