import { z } from "zod";
import { requiredString } from "../validation.js";
import { isValidCnpj, isValidCpf } from "./tax-ids.js";

/** A key to check: DICT's longest is an email of 77 characters. */
export const pixKeyInput = z
  .object({
    pixKey: requiredString()
      .trim()
      .min(1, "is required")
      .max(77)
      .describe("A CPF, CNPJ, email, phone (+55...) or random key."),
  })
  .strict();
/** GraphQL answers the flag alone. */
export const pixKeyValidity = z.object({ valid: z.boolean().describe("True when the key is well formed.") });

/** The kinds of Pix key the Central Bank's directory (DICT) registers. */
export type PixKeyType = "cpf" | "cnpj" | "email" | "phone" | "random";

// DICT's own formats: a phone with +55, an area code (11-99) and 8 or 9 digits; an email of at most 77
// characters; a random key (EVP) is a UUID. Tax ids may come with their usual punctuation.
const PHONE = /^\+55[1-9][1-9]\d{8,9}$/;
const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const RANDOM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CPF = /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/;
const CNPJ = /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/;
const MAX_EMAIL = 77;

/** Which kind of Pix key `key` is, or undefined when it is none (a CPF or CNPJ must carry valid check digits). */
export function pixKeyType(key: string): PixKeyType | undefined {
  if (PHONE.test(key)) return "phone";
  if (RANDOM.test(key)) return "random";
  if (key.length <= MAX_EMAIL && EMAIL.test(key)) return "email";
  const digits = key.replace(/\D/g, "");
  if (CPF.test(key) && isValidCpf(digits)) return "cpf";
  if (CNPJ.test(key) && isValidCnpj(digits)) return "cnpj";
  return undefined;
}
