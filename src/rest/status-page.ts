import type { FastifyInstance } from "fastify";
import { PROCESSING_PHASES } from "../reference-data/ramp-phases.js";

/**
 * A live status screen for one ramp, shipped with the service: `GET /status/{rampId}`, signed in by a session
 * access token or a secret key in the page's fragment (`#token=...`), which browsers never send to a server, so
 * no log or proxy sees it. The page reads the ramp once over HTTP, then follows `rampProgress` over graphql-ws
 * (the protocol is a few messages, spoken here without a library) and shows each phase as it is entered; a
 * failure, a ramp it may not see and a lost connection each have their own state, and a lost connection is
 * retried with a growing wait, reading the ramp again first.
 */

/** The GraphQL enum names of the phases a ramp goes through, in order. */
const PHASES = ["initial", ...PROCESSING_PHASES].map((phase) =>
  phase.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase(),
);

const SCRIPT = `const PHASES = ${JSON.stringify(PHASES)};
const FIELDS = "id type status currentPhase inputAmount inputCurrency outputAmount outputCurrency errors { phase error }";
const rampId = decodeURIComponent(location.pathname.split("/").pop());
const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
const credentials = token.startsWith("sk_") ? { "X-API-Key": token } : { Authorization: "Bearer " + token };
const screen = document.getElementById("status");
const steps = document.getElementById("phases");
const note = document.getElementById("note");
let reached = -1;
let finished = false;

PHASES.forEach((phase) => {
  const item = document.createElement("li");
  item.dataset.phase = phase;
  item.textContent = phase.replaceAll("_", " ").toLowerCase();
  steps.append(item);
});

function show(state, text) {
  document.body.dataset.state = state;
  screen.textContent = text;
}

function render(ramp) {
  const index = PHASES.indexOf(ramp.currentPhase);
  if (index > reached) reached = index;
  for (const item of steps.children) {
    const at = PHASES.indexOf(item.dataset.phase);
    item.className = at < reached ? "done" : at === reached ? "current" : "";
  }
  document.getElementById("amounts").textContent =
    ramp.type + " " + ramp.inputAmount + " " + ramp.inputCurrency + " -> " + ramp.outputAmount + " " + ramp.outputCurrency;
  if (ramp.status === "FAILED") {
    finished = true;
    const error = ramp.errors.at(-1);
    show("FAILED", "Failed" + (error ? " at " + error.phase.replaceAll("_", " ").toLowerCase() + ": " + error.error : ""));
  } else if (ramp.status === "COMPLETE") {
    finished = true;
    show("COMPLETE", "Complete");
  } else show("PENDING", ramp.currentPhase === "INITIAL" ? "Registered, waiting to start" : "In progress");
}

function refuse(errors) {
  finished = true;
  const code = errors?.[0]?.extensions?.code;
  if (code === "NOT_FOUND") show("NOT_FOUND", "No such ramp for these credentials");
  else if (code === "AUTHENTICATION_REQUIRED" || code === "INVALID_API_KEY" || code === "INVALID_TOKEN")
    show("SIGNED_OUT", "Sign in again: the credentials were refused");
  else show("ERROR", errors?.[0]?.message ?? "The ramp could not be read");
}

async function read() {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", ...credentials },
    body: JSON.stringify({ query: "query ($id: ID!) { ramp(id: $id) { " + FIELDS + " } }", variables: { id: rampId } }),
  });
  const { data, errors } = await response.json();
  if (data?.ramp) render(data.ramp);
  else refuse(errors);
}

function follow(attempt) {
  const socket = new WebSocket(location.origin.replace(/^http/, "ws") + "/graphql", "graphql-transport-ws");
  socket.onopen = () => socket.send(JSON.stringify({ type: "connection_init", payload: credentials }));
  socket.onmessage = async ({ data }) => {
    const message = JSON.parse(data);
    if (message.type === "connection_ack") {
      socket.send(JSON.stringify({
        id: "progress",
        type: "subscribe",
        payload: { query: "subscription ($id: ID!) { rampProgress(rampId: $id) { " + FIELDS + " } }", variables: { id: rampId } },
      }));
      attempt = 0;
      // Read after subscribing: a phase entered in between is in one or the other.
      await read();
      if (finished) socket.close(1000);
    } else if (message.type === "next") {
      if (message.payload.errors) refuse(message.payload.errors);
      else render(message.payload.data.rampProgress);
      if (finished) socket.close(1000);
    } else if (message.type === "error") {
      refuse(message.payload);
      socket.close(1000);
    } else if (message.type === "ping") socket.send(JSON.stringify({ type: "pong" }));
  };
  socket.onclose = () => {
    if (finished) return;
    const wait = Math.min(30000, 1000 * 2 ** attempt);
    show("DISCONNECTED", "Connection lost: trying again in " + Math.round(wait / 1000) + " s");
    setTimeout(() => follow(attempt + 1), wait);
  };
}

if (!token) show("SIGNED_OUT", "Open this page with #token=<session access token or secret key>");
else follow(0);
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Ramp status</title>
    <link rel="stylesheet" href="/status/assets/status.css" />
  </head>
  <body data-state="CONNECTING">
    <main>
      <h1>Ramp status</h1>
      <p id="amounts"></p>
      <p id="status" role="status" aria-live="polite">Connecting...</p>
      <ol id="phases"></ol>
      <p id="note">Updates arrive as the ramp enters each phase.</p>
    </main>
    <script src="/status/assets/status.js"></script>
  </body>
</html>
`;

const STYLE = `body { font-family: system-ui, sans-serif; margin: 2rem; color: #1b1b1b; }
main { max-width: 32rem; }
#status { font-size: 1.4rem; font-weight: 600; }
body[data-state="COMPLETE"] #status { color: #11772d; }
body[data-state="FAILED"] #status, body[data-state="NOT_FOUND"] #status, body[data-state="SIGNED_OUT"] #status,
body[data-state="ERROR"] #status { color: #b3261e; }
body[data-state="DISCONNECTED"] #status { color: #8a5a00; }
#phases li { color: #8a8a8a; padding: 0.2rem 0; }
#phases li.done { color: #11772d; }
#phases li.done::after { content: " \\2713"; }
#phases li.current { color: #1b1b1b; font-weight: 600; }
#note { color: #5f5f5f; font-size: 0.9rem; }
`;

const ASSETS: Record<string, { body: string; type: string }> = {
  "status.js": { body: SCRIPT, type: "text/javascript" },
  "status.css": { body: STYLE, type: "text/css" },
};

export function statusPageRoutes(server: FastifyInstance) {
  // The page holds no data: what it shows comes from GraphQL, with the credentials in its fragment.
  server.get("/status/:rampId", { config: { public: true } }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(PAGE),
  );
  server.get<{ Params: { file: string } }>(
    "/status/assets/:file",
    { config: { public: true } },
    async (request, reply) => {
      const asset = Object.hasOwn(ASSETS, request.params.file) ? ASSETS[request.params.file] : undefined;
      if (!asset) return reply.callNotFound();
      return reply.type(`${asset.type}; charset=utf-8`).header("cache-control", "no-cache").send(asset.body);
    },
  );
}
