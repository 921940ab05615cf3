import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noElectron = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        {
          name: 'electron',
          message: 'The service core and shared code run under plain Node: no electron here.',
        },
      ],
      patterns: [
        { group: ['electron/*'], message: 'The service core and shared code run under plain Node.' },
      ],
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
  { files: ['src/core/**/*.{ts,tsx}', 'src/shared/**/*.{ts,tsx}'], rules: noElectron },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
