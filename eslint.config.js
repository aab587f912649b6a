// ESLint's recommended rules over the front end (plain ES modules run by the browser) and the
// Node scripts that check it. Types are tsc's business (tsconfig.json), not ESLint's.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "tests/browser/a11y/node_modules/", ".venv/", ".venv-upgrade/"] },
  {
    files: ["static/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: ["eslint.config.js", "tools/**/*.mjs"],
    ...js.configs.recommended,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
  },
];
