// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Core code must run in plain Node: only the thin shell in src/electron may import electron. */
const noElectronInCore = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'electron', message: 'Only src/electron may import electron.' }],
      patterns: [{ group: ['electron/*'], message: 'Only src/electron may import electron.' }],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'out', 'release', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      ...noElectronInCore,
    },
  },
  { files: ['src/electron/**'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
