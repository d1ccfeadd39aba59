// ESLint: the recommended JavaScript and type-aware TypeScript rules; Prettier owns formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'coverage/', '.bench/', '.mutation/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The demo pages' scripts run in the browser, not in Node.
    files: ['scripts/demo/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        fetch: 'readonly',
        DOMParser: 'readonly',
      },
    },
  },
  {
    // The bundled code takes zod from shared/domain/zod.ts: zod/mini, with its English messages loaded.
    files: ['functions/**/*.ts'],
    ignores: ['functions/shared/domain/zod.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        ...['zod', 'zod/v4', 'zod/mini', 'zod/v4/mini', 'zod/v4-mini'].map((name) => ({
          name,
          message:
            "Use `import * as z from '…/shared/domain/zod.js'`: classic zod adds 60 KiB to each bundle, and zod/mini alone has no English messages.",
        })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value=/\\/zod\\.js$/] > ImportSpecifier[imported.name='z']",
          message:
            'Use `import * as z`: esbuild keeps the whole of a namespace imported as a value, every locale included (+320 KiB).',
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
