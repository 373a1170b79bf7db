/*
 * PIX BR Codes (the EMV merchant-presented format of Brazil's central bank), as a payer's bank app reads them: a
 * subaccount's static code, and a pay-in ticket's with its amount and reference.
 */

const field = (id: string, value: string) => `${id}${String(value.length).padStart(2, "0")}${value}`;

export function pixBrCode(code: { pixKey: string; amount?: string; reference: string }): string {
  const payload =
    field("00", "01") +
    field("26", field("00", "br.gov.bcb.pix") + field("01", code.pixKey)) +
    field("52", "0000") +
    field("53", "986") +
    (code.amount === undefined ? "" : field("54", code.amount)) +
    field("58", "BR") +
    field("59", "AVENIA SIMULATED") +
    field("60", "SAO PAULO") +
    field("62", field("05", code.reference.slice(0, 25))) +
    "6304";
  return payload + crc16(payload);
}

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) over the payload, as the format requires. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}
