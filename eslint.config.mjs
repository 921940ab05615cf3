import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The boundaries of DESIGN.md §2, each written once here so a misplaced import fails `npm run lint`.
const electronRule = [
  { name: 'electron', message: 'The service core and shared code run under plain Node: no electron here.' },
];
const electronPattern = [
  { group: ['electron/*'], message: 'The service core and shared code run under plain Node.' },
];
const demoPlatformPattern = {
  group: ['**/demo-platform', '**/demo-platform/*', '!**/demo-platform/*.test'],
  message:
    'The demo platform is a separate Graph API simulator: hosts (src/core/host, src/cli, src/main) start it and inject its endpoint; product code never imports it.',
};
const benchPattern = {
  group: ['**/bench/*', '**/bench'],
  message: 'Accuracy and speed are measured by the benchmarks; product code never imports them.',
};
const restrict = (...patterns) => ({
  'no-restricted-imports': [
    'error',
    { paths: electronRule, patterns: [...electronPattern, benchPattern, ...patterns] },
  ],
});
// Transports translate: SQL and rules live in the application layer (<domain>/use-cases.ts, store.ts).
const noSqlInTransports = {
  'no-restricted-syntax': [
    'error',
    {
      selector: "CallExpression[callee.property.name='prepare']",
      message: 'No SQL in a transport: call a use case (app.use.<domain>) instead.',
    },
    {
      selector: "CallExpression[callee.name='stmt']",
      message: 'No SQL in a transport: call a use case (app.use.<domain>) instead.',
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'out',
      'dist',
      'coverage',
      'test-results',
      'playwright-report',
      'e2e/artifacts',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      'no-console': 'off',
    },
  },
  // Later blocks replace no-restricted-imports for the files they match, so each lists every pattern.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [benchPattern] }] },
  },
  { files: ['src/core/**/*.{ts,tsx}', 'src/shared/**/*.{ts,tsx}'], rules: restrict() },
  {
    // Product code of the core reaches the demo platform only through what its host injects.
    files: ['src/core/**/*.{ts,tsx}'],
    ignores: [
      'src/core/demo-platform/**',
      'src/core/host/**',
      '**/*.test.{ts,tsx}',
      '**/test-*.ts',
      '**/testing/**',
      '**/fixtures.ts',
    ],
    rules: restrict(demoPlatformPattern),
  },
  {
    // The diagnostics engine and detectors are pure functions of their input: no store, no I/O, no clock.
    files: ['src/core/diagnostics/engine.ts', 'src/core/diagnostics/detectors/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restrict({
      group: [
        'node:*',
        'better-sqlite3',
        '**/store/*',
        '**/core',
        '**/events',
        '**/service',
        '**/load',
        '**/use-cases',
        '**/platform/*',
      ],
      message: 'The diagnostics engine and detectors stay pure: the service loads data and passes it in.',
    }),
  },
  {
    // The renderer and the preload see only src/shared (the contract), never the core or main.
    files: ['src/renderer/**/*.{ts,tsx}', 'src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/*', '**/core', '**/main/*', '**/cli/*', '**/client/*'],
              message: 'The renderer and preload import only src/shared.',
            },
            benchPattern,
          ],
        },
      ],
    },
  },
  {
    // Transports translate: SQL and rules are in the application layer.
    files: [
      'src/core/api/routes/**/*.ts',
      'src/core/handlers/**/*.ts',
      'src/core/dashboard/**/*.ts',
      'src/cli/commands/**/*.ts',
    ],
    ignores: ['**/*.test.ts', '**/test-*.ts'],
    rules: noSqlInTransports,
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
