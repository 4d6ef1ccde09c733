// The grail rules extension: starts `grail lsp` (the language server of the
// grail command) for every `.rules` file. Highlighting without the server
// comes from syntaxes/rules.tmLanguage.json.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("grail").get("path") || "grail";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "grail",
    "grail rules",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "grail" }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
