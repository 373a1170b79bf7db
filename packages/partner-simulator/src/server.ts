import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import {
  parseFaults,
  takeCallFault,
  type CallFault,
  type FaultsInput,
  type PartnerFaults,
  type PartnerName,
} from "./faults.js";
import { PartnerError, type Partner, type PartnerRequest, type Reply, type Route } from "./http.js";
import { DEFAULT_FIAT_PER_USD, TIMING_FIELDS, type Timing } from "./context.js";
import type { Scheduler } from "./scheduler.js";
import { countIn, type SimulatorStats } from "./stats.js";

const BODY_LIMIT_BYTES = 1024 * 1024;

/** What the `/_control` routes act on. */
export interface Control {
  setFaults(faults: FaultsInput): void;
  clearFaults(): void;
  stats(): SimulatorStats;
  reset(): void;
  /** Changes the named timings from now on (what is already scheduled keeps its time). */
  setTiming(timing: Partial<Timing>): void;
  /** Moves the market: units of each named fiat one US dollar buys, in the quotes made from now on. */
  setRates(rates: Record<string, number>): void;
  payAveniaTicket(ticketId: string): boolean;
  payAlfredpayOnramp(transactionId: string): boolean;
}

export interface ServerParts {
  partners: Record<PartnerName, Partner>;
  faults: (partner: PartnerName) => PartnerFaults;
  control: Control;
  scheduler: Scheduler;
  /** Hears of every request a partner answered: what it holds may have changed. */
  answered: () => void;
}

interface CompiledRoute {
  partner: PartnerName;
  route: Route;
  pattern: RegExp;
  paramNames: string[];
}

export function createSimulatorServer(parts: ServerParts): Server {
  const routes = compileRoutes(parts.partners);
  return createServer((request, response) => {
    void handle(parts, routes, request, response).catch(() => {
      if (!response.headersSent) send(response, { status: 500, body: { error: "simulator fault" } });
    });
  });
}

async function handle(parts: ServerParts, routes: CompiledRoute[], request: IncomingMessage, response: ServerResponse) {
  const url = request.url ?? "/";
  const [path = "/", queryString = ""] = url.split("?", 2);
  const method = request.method ?? "GET";
  const rawBody = await readBody(request);
  const owner = Object.values(parts.partners).find((partner) => path.startsWith(partner.pathPrefix));
  const simulatorError = (error: PartnerError): Reply => ({
    status: error.status,
    body: owner ? owner.errorBody(error) : { error: error.message },
  });
  if (rawBody === undefined) return send(response, simulatorError(new PartnerError(413, "body larger than 1 MB", 413)));
  if (path.startsWith("/_control/")) return send(response, control(parts.control, method, path, rawBody));

  const match = matchRoute(routes, method, path);
  if (!match) return send(response, simulatorError(new PartnerError(404, "no such route", 404)));
  const { compiled, params } = match;
  const partner = parts.partners[compiled.partner];
  const routeKey = `${method} ${compiled.route.template}`;
  countIn(parts.control.stats()[compiled.partner].calls, routeKey);
  const partnerRequest: PartnerRequest = {
    method,
    url,
    params,
    query: new URLSearchParams(queryString),
    headers: request.headers,
    rawBody,
    body: undefined,
  };
  const refuse = (error: PartnerError): Reply => ({ status: error.status, body: partner.errorBody(error) });
  if (compiled.route.open) {
    send(response, answer(compiled.route, partnerRequest, refuse));
    return parts.answered();
  }
  if (!partner.isAuthenticated(partnerRequest))
    return send(response, refuse(new PartnerError(401, "Unauthorized", 401)));
  const contentType = request.headers["content-type"] ?? "";
  if (contentType.startsWith("multipart/form-data")) {
    try {
      partnerRequest.form = await new Response(rawBody, { headers: { "content-type": contentType } }).formData();
    } catch {
      return send(response, refuse(new PartnerError(400, "malformed multipart body", 110002)));
    }
  } else {
    try {
      partnerRequest.body = rawBody.length === 0 ? undefined : JSON.parse(rawBody.toString("utf8"));
    } catch {
      return send(response, refuse(new PartnerError(400, "malformed JSON body", 110002)));
    }
  }

  const latencyMs = parts.faults(compiled.partner).latencyMs;
  if (latencyMs) await new Promise<void>((resolve) => parts.scheduler.after(latencyMs, resolve));
  // Read again after the wait: the faults may have been replaced meanwhile.
  const before = takeCallFault(parts.faults(compiled.partner), "before", routeKey);
  if (before) return applyFault(before, response, refuse);
  const reply = answer(compiled.route, partnerRequest, refuse);
  parts.answered();
  const after = takeCallFault(parts.faults(compiled.partner), "after", routeKey);
  if (after) return applyFault(after, response, refuse);
  send(response, reply);
}

function answer(route: Route, request: PartnerRequest, refuse: (error: PartnerError) => Reply): Reply {
  try {
    return route.handle(request);
  } catch (error) {
    if (error instanceof PartnerError) return refuse(error);
    throw error;
  }
}

function applyFault(fault: CallFault, response: ServerResponse, refuse: (error: PartnerError) => Reply): void {
  // A held socket is answered by nobody: the client's timeout or stop() ends it.
  if (fault.kind === "timeout") return;
  if (fault.kind === "reset") {
    response.socket?.destroy();
    return;
  }
  send(response, refuse(new PartnerError(fault.status, "simulated fault", fault.status)));
}

function control(control: Control, method: string, path: string, rawBody: Buffer): Reply {
  const route = `${method} ${path}`;
  if (route === "GET /_control/stats") return { status: 200, body: control.stats() };
  if (route === "POST /_control/reset") return (control.reset(), { status: 204 });
  if (route === "DELETE /_control/faults") return (control.clearFaults(), { status: 204 });
  if (route === "PUT /_control/faults") {
    let input: unknown;
    try {
      input = JSON.parse(rawBody.toString("utf8"));
    } catch {
      return { status: 400, body: { error: "malformed JSON body" } };
    }
    const faults = parseFaults(input);
    if (typeof faults === "string") return { status: 400, body: { error: faults } };
    control.setFaults(faults);
    return { status: 204 };
  }
  if (route === "PATCH /_control/timing") {
    const timing = parseTiming(rawBody);
    if (typeof timing === "string") return { status: 400, body: { error: timing } };
    control.setTiming(timing);
    return { status: 204 };
  }
  if (route === "PATCH /_control/rates") {
    const rates = parseRates(rawBody);
    if (typeof rates === "string") return { status: 400, body: { error: rates } };
    control.setRates(rates);
    return { status: 204 };
  }
  const pay = /^POST \/_control\/(avenia\/tickets|alfredpay\/onramp)\/([^/]+)\/pay$/.exec(route);
  if (pay) {
    const id = decodeURIComponent(pay[2] ?? "");
    const paid = pay[1] === "avenia/tickets" ? control.payAveniaTicket(id) : control.payAlfredpayOnramp(id);
    return paid ? { status: 204 } : { status: 409, body: { error: "no such unpaid order" } };
  }
  return { status: 404, body: { error: "no such route" } };
}

function compileRoutes(partners: Record<PartnerName, Partner>): CompiledRoute[] {
  return Object.entries(partners).flatMap(([partner, { routes }]) =>
    routes.map((route) => {
      const paramNames: string[] = [];
      const source = route.template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
        paramNames.push(name);
        return "([^/]+)";
      });
      return { partner: partner as PartnerName, route, pattern: new RegExp(`^${source}$`), paramNames };
    }),
  );
}

function matchRoute(routes: CompiledRoute[], method: string, path: string) {
  for (const compiled of routes) {
    if (compiled.route.method !== method) continue;
    const found = compiled.pattern.exec(path);
    if (!found) continue;
    const params = Object.fromEntries(
      compiled.paramNames.map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]),
    );
    return { compiled, params };
  }
  return undefined;
}

/** The body, or undefined when it passes the limit (the rest is drained, not buffered). */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_LIMIT_BYTES) tooLarge = true;
    if (!tooLarge) chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks);
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply.body === undefined) {
    response.writeHead(reply.status).end();
    return;
  }
  const body = JSON.stringify(reply.body);
  response.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/** A timing patch: some of Timing's fields, each a whole number of milliseconds; an error message otherwise. */
function parseObject(rawBody: Buffer): Record<string, unknown> | string {
  let input: unknown;
  try {
    input = JSON.parse(rawBody.toString("utf8"));
  } catch {
    return "malformed JSON body";
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) return "the body must be an object";
  return input as Record<string, unknown>;
}

function parseRates(rawBody: Buffer): Record<string, number> | string {
  const input = parseObject(rawBody);
  if (typeof input === "string") return input;
  for (const [fiat, rate] of Object.entries(input)) {
    if (!Object.hasOwn(DEFAULT_FIAT_PER_USD, fiat))
      return `${fiat} is not a fiat the partners quote (${Object.keys(DEFAULT_FIAT_PER_USD).join(", ")})`;
    if (typeof rate !== "number" || !Number.isFinite(rate) || rate <= 0) return `${fiat} must be a positive number`;
  }
  return input as Record<string, number>;
}

function parseTiming(rawBody: Buffer): Partial<Timing> | string {
  const input = parseObject(rawBody);
  if (typeof input === "string") return input;
  const patch: Partial<Timing> = {};
  for (const [name, value] of Object.entries(input)) {
    if (!TIMING_FIELDS.includes(name as keyof Timing)) return `${name} is not a timing (${TIMING_FIELDS.join(", ")})`;
    if (!Number.isSafeInteger(value) || (value as number) < 0) return `${name} must be a whole number of milliseconds`;
    patch[name as keyof Timing] = value as number;
  }
  return patch;
}
