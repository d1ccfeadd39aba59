import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const dynamoDbTests = ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'];
const browserTests = ['test/browser/**/*.test.ts'];

export default defineConfig({
  test: {
    // A safety net for a test that hangs, not a measure: on a loaded 2-core CI machine (two test files, DynamoDB
    // Local and Chromium sharing it) the slowest tests take half a minute.
    testTimeout: 60_000,
    // One test file per core, not Vitest's default of one fewer: the DynamoDB and browser files spend much
    // of their time waiting on DynamoDB Local and Chromium, separate processes, so on 2 cores one worker
    // left a core idle (a run took 539 s with one worker, 410 s with two).
    maxWorkers: availableParallelism(),
    // Node 20 is a supported development platform here; Lambda runs Node 22.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    hookTimeout: 60_000,
    // Each test file makes its temporary files in a directory of its own, removed after it: a run leaves none.
    setupFiles: ['test/support/own-temp-dir.ts'],
    // expect.poll waits for a browser or a stream poller: on a loaded 2-core machine that can take
    // seconds, well past Vitest's default of one.
    expect: { poll: { timeout: 10_000 } },
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
