import { defineConfig } from 'vitest/config';

/**
 * The test set `npm run mutation` runs against each mutant: the unit tests of functions/ (fast, no
 * DynamoDB Local), one project so that Stryker's per-test coverage can pick the tests that reach a mutant.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    include: ['test/unit/functions/**/*.test.ts', 'test/unit/support/**/*.test.ts'],
    // Runs bundled code in a child process: it cannot kill a mutant of the sources, only cost time.
    exclude: ['test/unit/functions/shared/source-mapped-stack.test.ts'],
  },
});
