/**
 * Runs a command-line tool's `main`: a failure prints its message alone (no stack trace) and
 * exits 1. Node 20 is a supported development platform, so the AWS SDK's warning about it is off.
 */
export async function runCli(main: () => Promise<void>): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
