import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../errors.js";

/*
 * GraphiQL for development: `GET /graphql` from a browser. Every file it loads is served from this service
 * out of npm packages (GraphiQL bundles graphql-ws for subscriptions), so it works offline; production never
 * serves it (the packages are development dependencies).
 */

const require = createRequire(import.meta.url);
/**
 * The page's files: browser builds their packages' exports do not name, found beside each package.json and
 * resolved only when development serves them.
 */
const ASSETS = {
  "react.js": [() => require.resolve("react/package.json"), "umd/react.production.min.js", "text/javascript"],
  "react-dom.js": [
    () => require.resolve("react-dom/package.json"),
    "umd/react-dom.production.min.js",
    "text/javascript",
  ],
  "graphiql.js": [() => require.resolve("graphiql/package.json"), "graphiql.min.js", "text/javascript"],
  "graphiql.css": [() => require.resolve("graphiql/package.json"), "graphiql.min.css", "text/css"],
} as const;

/** The first tab's opening, and a new tab's whole text. */
const WELCOME = `# The ramp gateway's GraphQL API, in development only
# (production serves neither this page nor introspection).
#
# Each tab is an example and says which header it needs.
# The bar at the top writes it into the tab's headers
# (below): a session token from the RequestSignInCode
# tab, or a secret API key from the Me tab.
#
# Ctrl-Enter (or the play button) runs; Ctrl-Space
# completes; the book icon (top left) shows every type.
`;

/**
 * The operations GraphiQL opens with, one tab each, each saying which header it needs (the first needs none and
 * welcomes the reader); they are checked against the schema by the browser test.
 */
export const EXAMPLE_TABS = [
  {
    query: `${WELCOME}
# This one needs no header: the fiat currencies ramped.
query ReferenceData {
  supportedFiatCurrencies {
    symbol
    name
    decimals
  }
}
`,
  },
  {
    query: `# No header needed. Run RequestSignInCode, then SignIn
# with the 6-digit code from the email (with no SMTP_URL
# set, it is in the newest file under $DATA_DIR/mail).
# Put the accessToken in the bar at the top as a session
# token.
mutation RequestSignInCode($email: String!) {
  requestOtp(email: $email) {
    message
  }
}

mutation SignIn($email: String!, $code: String!) {
  verifyOtp(email: $email, token: $code) {
    session {
      accessToken
      expiresIn
      userId
    }
  }
}
`,
    variables: `{ "email": "you@example.com", "code": "123456" }`,
  },
  {
    query: `# Header: Authorization (a session token from SignIn, in
# the RequestSignInCode tab) or X-API-Key.
query Me {
  me {
    id
    email
  }
}

# A session token only. The secret key is shown this once:
# put it in the bar at the top as a secret API key.
mutation CreateApiKey {
  createApiCredential(input: { name: "GraphiQL" }) {
    credential {
      secretKey
    }
  }
}
`,
  },
  {
    query: `# No header needed (with one, the price is yours).
# registerRamp then takes the quote's id, with a session
# token or an API key.
mutation CreateQuote {
  createQuote(
    input: {
      rampType: BUY
      from: "sepa"
      to: "polygon"
      inputAmount: "100.00"
      inputCurrency: "EUR"
      outputCurrency: "USDC"
    }
  ) {
    quote {
      id
      outputAmount
      outputCurrency
      totalFeeFiat
      expiresAt
    }
  }
}
`,
  },
  {
    query: `# Header: Authorization (a session token) or X-API-Key.
# Pass pageInfo.endCursor as $after for the next page.
query Ramps($after: String) {
  ramps(first: 10, after: $after) {
    totalCount
    edges {
      node {
        id
        status
        currentPhase
        createdAt
      }
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
`,
  },
  {
    query: `# Header: Authorization (a session token) or X-API-Key,
# sent over graphql-ws as the subscription starts.
# Follows one of your ramps (an id from the Ramps tab)
# each time it enters a phase, until you stop it.
subscription RampProgress($rampId: ID!) {
  rampProgress(rampId: $rampId) {
    id
    currentPhase
    status
    updatedAt
  }
}
`,
    variables: `{ "rampId": "an id from the Ramps tab" }`,
  },
];

/**
 * Starts GraphiQL on the page, under the bar that writes a credential into the headers editor: queries over HTTP
 * and subscriptions over graphql-ws, with the tab's headers, kept in this browser (namespaced, as other tools on
 * localhost keep theirs). The schema is read without the headers: it is public in development, and a stale
 * credential must not hide it. The bar reaches the headers editor through the logo, which GraphiQL renders inside
 * its editor context.
 */
const START = `const { createElement: h, Fragment, useEffect, useState } = React;
const url = new URL("/graphql", location.href);
const socket = new URL(url);
socket.protocol = location.protocol === "https:" ? "wss:" : "ws:";
const send = GraphiQL.createFetcher({ url: url.href, subscriptionUrl: socket.href });
const fetcher = (params, options) =>
  send(params, params.operationName === "IntrospectionQuery" ? { ...options, headers: {} } : options);

const CREDENTIALS = {
  session: { header: "Authorization", prefix: "Bearer ", hint: "accessToken from SignIn (the RequestSignInCode tab)" },
  key: { header: "X-API-Key", prefix: "", hint: "sk_test_... from the Me tab's CreateApiKey" },
};

/** The tab's headers without any credential, and with the one given. */
function writeCredential(editor, credential) {
  let headers;
  try {
    headers = JSON.parse(editor.getValue() || "{}");
  } catch {
    headers = {};
  }
  for (const name of Object.keys(headers))
    if (/^(authorization|x-api-key)$/i.test(name)) delete headers[name];
  if (credential) headers[credential.header] = credential.value;
  editor.setValue(JSON.stringify(headers, null, 2));
}

function HeaderHelper({ editor }) {
  const [kind, setKind] = useState("session");
  const [value, setValue] = useState("");
  const { header, prefix, hint } = CREDENTIALS[kind];
  const use = (event) => {
    event.preventDefault();
    writeCredential(editor, { header, value: prefix + value.trim().replace(/^Bearer\\s+/i, "") });
  };
  return h(
    "form",
    { id: "header-helper", onSubmit: use },
    h("label", { htmlFor: "credential-kind" }, "Credential for this tab"),
    h(
      "select",
      { id: "credential-kind", value: kind, onChange: (event) => setKind(event.target.value) },
      h("option", { value: "session" }, "Session token (Authorization: Bearer)"),
      h("option", { value: "key" }, "Secret API key (X-API-Key)"),
    ),
    h("input", {
      id: "credential-value",
      "aria-label": "Credential value",
      placeholder: hint,
      value,
      required: true,
      onChange: (event) => setValue(event.target.value),
    }),
    h("button", { type: "submit", disabled: !editor }, "Use in this tab's headers"),
    h("button", { type: "button", disabled: !editor, onClick: () => writeCredential(editor) }, "Remove credential"),
    h(
      "p",
      null,
      "Each tab has its own headers, kept in this browser's localStorage across reloads: remove a credential when done.",
    ),
  );
}

function HeadersEditorLink({ onEditor }) {
  const { headerEditor } = GraphiQL.React.useEditorContext({ nonNull: true });
  useEffect(() => onEditor(headerEditor), [headerEditor, onEditor]);
  return "Ramp gateway";
}

function Page() {
  const [editor, setEditor] = useState(null);
  return h(
    Fragment,
    null,
    h(HeaderHelper, { editor }),
    h(
      "main",
      { id: "graphiql" },
      h(
        GraphiQL,
        {
          fetcher,
          defaultTabs: ${JSON.stringify(EXAMPLE_TABS)},
          defaultQuery: ${JSON.stringify(WELCOME)},
          defaultEditorToolsVisibility: "headers",
          shouldPersistHeaders: true,
          storage: GraphiQL.createLocalStorage({ namespace: "ramp-gateway" }),
        },
        h(GraphiQL.Logo, null, h(HeadersEditorLink, { onEditor: setEditor })),
      ),
    ),
  );
}

ReactDOM.createRoot(document.getElementById("root")).render(h(Page));
`;

/** The page: the header bar and GraphiQL, and their files, all from this service. */
const GRAPHIQL_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Ramp gateway GraphiQL</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/graphiql/graphiql.css" />
    <style>
      body { margin: 0; font-family: system-ui, sans-serif; }
      #root { display: flex; flex-direction: column; height: 100vh; }
      #header-helper { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; padding: 0.5rem 1rem; }
      #header-helper input { flex: 1; min-width: 16rem; }
      #header-helper p { flex-basis: 100%; margin: 0; font-size: 0.85rem; color: #555; }
      #graphiql { flex: 1; min-height: 0; }
    </style>
  </head>
  <body>
    <div id="root">Loading GraphiQL...</div>
    <script src="/graphiql/react.js"></script>
    <script src="/graphiql/react-dom.js"></script>
    <script src="/graphiql/graphiql.js"></script>
    <script src="/graphiql/start.js"></script>
  </body>
</html>
`;

/** Answers a browser's request for the page itself (a GET that takes HTML and asks no query) with GraphiQL. */
export async function sendGraphiQLToBrowsers(request: FastifyRequest, reply: FastifyReply) {
  const query = request.query as Record<string, unknown> | undefined;
  if (request.method === "GET" && !query?.query && (request.headers.accept ?? "").includes("text/html"))
    return reply.type("text/html; charset=utf-8").send(GRAPHIQL_PAGE);
}

/** The page's files under /graphiql/, read once from their packages. */
export function registerGraphiQLAssets(server: FastifyInstance): void {
  const files = new Map<string, { body: Buffer | string; type: string }>([
    ["start.js", { body: START, type: "text/javascript" }],
  ]);
  for (const [name, [packageJson, path, type]] of Object.entries(ASSETS))
    files.set(name, { body: readFileSync(join(dirname(packageJson()), path)), type });
  server.get<{ Params: { file: string } }>("/graphiql/:file", { config: { public: true } }, async (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) throw new AppError("NOT_FOUND");
    return reply.type(`${file.type}; charset=utf-8`).header("cache-control", "no-cache").send(file.body);
  });
}
