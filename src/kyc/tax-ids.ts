/** Brazilian tax ids: CPF (individuals, 11 digits) and CNPJ (companies, 14 digits), both with two mod-11 check digits. */

function checkDigit(digits: number[], weights: number[]): number {
  const rest = digits.reduce((sum, digit, index) => sum + digit * weights[index]!, 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}

function hasCheckDigits(value: string, length: number, weights: [number[], number[]]): boolean {
  if (!new RegExp(`^\\d{${length}}$`).test(value) || /^(\d)\1+$/.test(value)) return false;
  const digits = [...value].map(Number);
  const body = digits.slice(0, length - 2);
  const first = checkDigit(body, weights[0]);
  return first === digits[length - 2] && checkDigit([...body, first], weights[1]) === digits[length - 1];
}

export const isValidCpf = (digits: string) =>
  hasCheckDigits(digits, 11, [
    [10, 9, 8, 7, 6, 5, 4, 3, 2],
    [11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
  ]);
export const isValidCnpj = (digits: string) =>
  hasCheckDigits(digits, 14, [
    [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
  ]);

/** The customer a Brazilian tax id names, formatting ignored: a CPF an individual, a CNPJ a business. */
export function taxIdCustomerType(taxId: string): "individual" | "business" | undefined {
  const digits = taxId.replace(/[.\-/\s]/g, "");
  if (isValidCpf(digits)) return "individual";
  return isValidCnpj(digits) ? "business" : undefined;
}
