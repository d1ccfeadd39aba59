// ESLint: the recommended JavaScript and type-aware TypeScript rules; Prettier owns formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The one module of functions/ that may import zod itself. */
const zodModule = 'functions/shared/domain/zod.ts';

/** The bundled code takes zod from shared/domain/zod.ts: zod/mini, with its English messages loaded. */
const zodImports = {
  paths: ['zod', 'zod/v4', 'zod/mini', 'zod/v4/mini', 'zod/v4-mini'].map((name) => ({
    name,
    message:
      "Use `import * as z from '…/shared/domain/zod.js'`: classic zod adds 60 KiB to each bundle, and zod/mini alone has no English messages.",
  })),
};

/** Deployed code never reaches into the command-line tools. */
const toolImports = {
  patterns: [
    {
      regex: '^\\.{1,2}/(.*/)?scripts(/|$)',
      message: 'functions/ is deployed; scripts/ is not. Move what both need into functions/shared/.',
    },
  ],
};

/**
 * Only functions/shared/table/ (the repositories) and functions/shared/dynamodb-client/ talk to AWS (scripts/,
 * test/, lib/ and bin/ are not deployed functions).
 */
const awsSdkImports = {
  patterns: [
    {
      group: ['@aws-sdk/*'],
      message:
        'Only functions/shared/table/ and functions/shared/dynamodb-client/ import the AWS SDK: put the DynamoDB call in a repository in table/.',
    },
  ],
};

/**
 * functions/notify/channels/ mails through SES v2 with the notifier's role; every other AWS call still goes
 * through functions/shared/table/.
 */
const awsSdkImportsButSes = {
  patterns: [
    {
      group: ['@aws-sdk/*', '!@aws-sdk/client-sesv2'],
      message:
        'Only functions/shared/table/ (and SES v2 in functions/notify/channels/) imports the AWS SDK: put the DynamoDB call in a repository there.',
    },
  ],
};

/** The domain is rules only: no AWS, no Lambda or HTTP types, no storage. */
const domainImports = {
  paths: [
    {
      name: 'aws-lambda',
      message: 'functions/shared/domain/ knows nothing of Lambda: keep it in shared/http/.',
    },
  ],
  patterns: [
    {
      group: ['@middy/*'],
      message: 'functions/shared/domain/ knows nothing of middy: keep it in shared/http/.',
    },
    {
      regex: '^\\.{1,2}/(.*/)?(http|table|caches|secrets|dynamodb-client)/',
      message:
        'functions/shared/domain/ imports neither shared/http/ nor the table, caches, secrets or client: they import the domain.',
    },
  ],
};

/**
 * The floors under the functions: the DynamoDB client knows no table; the table (repositories, keys, items)
 * knows the client and the domain, never a cache, a secret, sign-in, HTTP or a function; caches sit on the
 * table; secrets know only the configuration. Each import goes down a floor, never up. A floor is a folder: its
 * name ends in `/`, so `author-counts.ts` is not the `auth/` floor.
 */
const functionFloors = '(comment|article|notify)/';
const clientImports = {
  patterns: [
    {
      regex: `^\\.{1,2}/(.*/)?((table|caches|secrets|auth|http|domain|notify)/|${functionFloors})`,
      message:
        'functions/shared/dynamodb-client/ is the bottom floor: it imports nothing of the project above it.',
    },
  ],
};
const tableImports = {
  patterns: [
    {
      regex: `^\\.{1,2}/(.*/)?((caches|secrets|auth|http)/|${functionFloors})`,
      message:
        'functions/shared/table/ imports only the domain, the client and the shared helpers: what needs a cache, a secret or sign-in sits above it.',
    },
  ],
};
const cacheImports = {
  patterns: [
    {
      regex: `^\\.{1,2}/(.*/)?((secrets|auth|http)/|${functionFloors})`,
      message: 'functions/shared/caches/ sits on the table: it imports no secret, sign-in, HTTP or function.',
    },
  ],
};
const secretImports = {
  patterns: [
    {
      regex: `^\\.{1,2}/(.*/)?((table|caches|auth|http|domain|dynamodb-client)/|${functionFloors})`,
      message: 'functions/shared/secrets/ reads keys: it imports only the configuration and the log.',
    },
  ],
};

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
        localStorage: 'readonly',
      },
    },
  },
  {
    // zod comes in as a namespace (`import * as z`), never as `{ z }`; the module itself imports zod as it must.
    files: ['functions/**/*.ts'],
    ignores: [zodModule],
    rules: {
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
  // The layers of the deployed code. A later block that sets `no-restricted-imports` replaces an earlier
  // one for the files both match, so each entry lists every restriction its files are under.
  ...[
    {
      files: ['functions/**/*.ts'],
      ignores: [zodModule],
      restrictions: [zodImports, toolImports, awsSdkImports],
    },
    { files: ['functions/shared/table/**/*.ts'], restrictions: [zodImports, toolImports, tableImports] },
    {
      files: ['functions/shared/dynamodb-client/**/*.ts'],
      restrictions: [zodImports, toolImports, clientImports],
    },
    {
      files: ['functions/shared/caches/**/*.ts'],
      restrictions: [zodImports, toolImports, awsSdkImports, cacheImports],
    },
    {
      files: ['functions/shared/secrets/**/*.ts'],
      restrictions: [zodImports, toolImports, awsSdkImports, secretImports],
    },
    {
      files: ['functions/notify/channels/**/*.ts'],
      restrictions: [zodImports, toolImports, awsSdkImportsButSes],
    },
    {
      files: ['functions/shared/domain/**/*.ts'],
      ignores: [zodModule],
      restrictions: [zodImports, toolImports, awsSdkImports, domainImports],
    },
    { files: [zodModule], restrictions: [toolImports, awsSdkImports, domainImports] },
  ].map(({ files, ignores = [], restrictions }) => ({
    files,
    ignores,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: restrictions.flatMap((restriction) => restriction.paths ?? []),
          patterns: restrictions.flatMap((restriction) => restriction.patterns ?? []),
        },
      ],
    },
  })),
  {
    // No import cycle in the deployed code: each module of a floor reads from the ones below it, so any of
    // them can be read (and tested) without the rest. Type-only imports count too: a cycle of types is a
    // cycle of concepts.
    files: ['functions/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
