/** Import cycles: none between modules, none between folders of src/. */
module.exports = {
  forbidden: [
    { name: "no-module-cycles", severity: "error", from: {}, to: { circular: true } },
    { name: "no-folder-cycles", severity: "error", scope: "folder", from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    // Type-only imports count: a cycle of types still ties the folders together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
