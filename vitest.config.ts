import { defineConfig } from 'vitest/config';

const dynamoDbTests = ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'];
const browserTests = ['test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    // Node 20 is a supported development platform here; Lambda runs Node 22.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 60_000,
    // Files and tests in a random order, so that no test can lean on what another left behind. The run
    // prints its seed (`Running tests with seed "<n>"`); `--sequence.seed=<n>` repeats that order.
    sequence: { shuffle: true },
    // `npm run coverage`: every project, over every file of functions/ (loaded by a test or not);
    // scripts/check-coverage.ts then holds the figures to the thresholds the README quotes.
    coverage: {
      provider: 'v8',
      include: ['functions/**/*.ts'],
      reporter: ['text', 'json-summary'],
      reportsDirectory: 'coverage',
    },
    // Separate projects so that only runs with integration, e2e or browser files pay for (and need Java for)
    // DynamoDB Local: a project's globalSetup runs only when that project has test files queued.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...dynamoDbTests, ...browserTests] },
      },
      {
        extends: true,
        test: {
          name: 'dynamodb',
          include: dynamoDbTests,
          // One DynamoDB Local for the whole run; each test file makes its own table in it.
          globalSetup: ['test/support/dynamodb-global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserTests,
          // The same DynamoDB Local as the dynamodb project (the setup shares one engine between projects),
          // and Debian's Chromium, one per file, driven by playwright-core.
          globalSetup: ['test/support/dynamodb-global-setup.ts'],
        },
      },
    ],
  },
});
