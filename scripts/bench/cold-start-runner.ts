/**
 * What a Lambda cold start does, in a fresh `node`: import the bundle (argv[2]), hand its handler one event
 * (argv[3], JSON), and print one line: the status and when, since the process began, the import and the
 * answer were done. cold-start.ts bundles this file and runs it; it imports nothing but node built-ins.
 */
import { pathToFileURL } from 'node:url';

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number }>;

const [bundle, eventJson] = process.argv.slice(2);
if (!bundle || !eventJson) throw new Error('usage: cold-start-runner <bundle.mjs> <event json>');
const event: unknown = JSON.parse(eventJson);
const context = {
  functionName: 'marginalia-cold-start',
  awsRequestId: 'cold-start',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 10_000,
};

const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: Handler };
const importedMs = performance.now();
const result = await handler(event, context);
const answeredMs = performance.now();
process.stdout.write(`${JSON.stringify({ statusCode: result.statusCode, importedMs, answeredMs })}\n`);
// Lambda freezes the process here; the keep-alive sockets of the SDK would otherwise hold it open.
process.exit(0);
