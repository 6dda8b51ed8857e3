// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const ENTRY_ONLY = "Import an adapter folder's index.js, not one of its helpers.";
const INTO_ADAPTER_HELPERS = {
  regex: "(^|/)adapters/[^/]+/(?!index\\.js$)[^/]+$",
  message: ENTRY_ONLY,
};
const INTO_SIBLING_ADAPTER_HELPERS = {
  regex: "^\\.\\./[^./][^/]*/(?!index\\.js$)[^/]+$",
  message: ENTRY_ONLY,
};

export default tseslint.config(
  // examples/demo-workspace is the demo's sample project, not our code.
  { ignores: ["dist/**", "node_modules/**", "coverage/**", "examples/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  ...tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/switch-exhaustiveness-check": "error",
    },
  },
  {
    // Rooms: code outside an adapter folder uses its entry (index.ts) only, never its helpers.
    // Tests and the bench may reach in: they exist to test and measure those helpers.
    files: ["src/**/*.ts", "scripts/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [INTO_ADAPTER_HELPERS] }] },
  },
  {
    // Inside src/adapters, a sibling folder (`../shell/…`) is outside too.
    files: ["src/adapters/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [INTO_ADAPTER_HELPERS, INTO_SIBLING_ADAPTER_HELPERS] },
      ],
    },
  },
  {
    // The core is contracts and logic: nothing from outside it, and no Node I/O. Of Node's
    // modules only hashing (node:crypto) is pure enough; the process (its env, cwd, platform) is
    // what bootstrap reads once and hands down.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(adapters|features|cli|bootstrap)(/|\\.js$)",
              message: "core/ depends on nothing outside it.",
            },
            {
              regex:
                "^(?!node:crypto$)(node:.*|fs|fs/.*|os|path|child_process|process|net|http|https|url|worker_threads)$",
              message: "core/ does no I/O: of Node's modules only node:crypto (hashing).",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        {
          name: "process",
          message: "core/ reads no process state: bootstrap reads it once and passes it down.",
        },
      ],
    },
  },
  {
    // The composition root builds what the CLI asks for; it never reaches back into the CLI.
    files: ["src/bootstrap/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            INTO_ADAPTER_HELPERS,
            { regex: "^(\\.\\./)+cli(/|\\.js$)", message: "bootstrap/ never imports cli/." },
            {
              regex: "^(\\.\\./)+bootstrap\\.js$",
              message:
                "bootstrap/ holds the root's parts; src/bootstrap.ts imports them, not back.",
            },
          ],
        },
      ],
    },
  },
  {
    // The CLI turns argv into settings and owns the terminal; everything that opens a file, a
    // journal, a model or a sandbox is built by the composition root, src/bootstrap.ts, the one
    // module of it the CLI imports. Types may still name an adapter's.
    files: ["src/cli/**/*.ts", "src/cli.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\.?/)+adapters(/|$)",
              allowTypeImports: true,
              message: "cli/ reaches adapters only through src/bootstrap.ts (type imports aside).",
            },
            {
              regex: "^(\\.\\.?/)+bootstrap/",
              message: "cli/ imports the composition root as src/bootstrap.ts, never its parts.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The build scripts are plain JavaScript run by node (prepare must not need tsx).
    files: ["scripts/**/*.js", "scripts/**/*.cjs"],
    languageOptions: {
      globals: { process: "readonly", URL: "readonly", performance: "readonly" },
    },
  },
  {
    files: ["scripts/**/*.cjs"],
    languageOptions: {
      sourceType: "commonjs",
      globals: { require: "readonly", __dirname: "readonly" },
    },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
