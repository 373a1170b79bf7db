import { constants, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { rememberSecret } from "./secrets.js";

export { standardWebhookHeaders } from "../../packages/partner-simulator/src/signing.js";

/** A Standard Webhooks secret for Alfredpay's callbacks, remembered for the log audit. */
export const newCallbackSecret = () => rememberSecret(`whsec_${randomBytes(32).toString("base64")}`);

/**
 * Avenia as far as its callbacks go: `GET /v2/public-key` serves the key this stand-in signs bodies with (as the
 * simulator does, which keeps its private key to itself), so a test can sign any body it sends.
 */
export async function startAveniaKeyServer() {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = publicKey.export({ type: "pkcs1", format: "pem" }).toString();
  let keyFetches = 0;
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/v2/public-key") {
      keyFetches += 1;
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ publicKey: pem }));
      return;
    }
    response.statusCode = 404;
    response.end(JSON.stringify({ error: "not found" }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** The `signature` header Avenia would send with these bytes (RSA-PSS/SHA-256, maximum salt). */
    sign: (rawBody: string | Buffer) =>
      sign("sha256", Buffer.from(rawBody), {
        key: privateKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
      }).toString("base64"),
    keyFetches: () => keyFetches,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
