/*
 * Starts GraphiQL on the page, under the bar that writes a credential into the headers editor: queries over HTTP
 * and subscriptions over graphql-ws, with the tab's headers, kept in this browser (namespaced, as other tools on
 * localhost keep theirs). The schema is read without the headers: it is public in development, and a stale
 * credential must not hide it. The bar reaches the headers editor through the logo, which GraphiQL renders inside
 * its editor context.
 */
const { createElement: h, Fragment, useEffect, useState } = React;
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
  for (const name of Object.keys(headers)) if (/^(authorization|x-api-key)$/i.test(name)) delete headers[name];
  if (credential) headers[credential.header] = credential.value;
  editor.setValue(JSON.stringify(headers, null, 2));
}

function HeaderHelper({ editor }) {
  const [kind, setKind] = useState("session");
  const [value, setValue] = useState("");
  const { header, prefix, hint } = CREDENTIALS[kind];
  const use = (event) => {
    event.preventDefault();
    writeCredential(editor, { header, value: prefix + value.trim().replace(/^Bearer\s+/i, "") });
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

function Page({ tabs }) {
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
          defaultTabs: tabs,
          // A new tab opens on the welcome: the first example's opening paragraph.
          defaultQuery: tabs[0].query.slice(0, tabs[0].query.indexOf("\n\n") + 1),
          defaultEditorToolsVisibility: "headers",
          shouldPersistHeaders: true,
          storage: GraphiQL.createLocalStorage({ namespace: "ramp-gateway" }),
        },
        h(GraphiQL.Logo, null, h(HeadersEditorLink, { onEditor: setEditor })),
      ),
    ),
  );
}

// The example tabs: their documents, their order and their variables, as this service reads them from its files.
fetch("/graphiql/examples.json")
  .then((response) => response.json())
  .then((tabs) => ReactDOM.createRoot(document.getElementById("root")).render(h(Page, { tabs })));
