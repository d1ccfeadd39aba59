/**
 * A stand-in for Lambda's Node.js runtime, run by lambda-process.ts under the Node.js the functions deploy
 * on: loads the handler as Lambda does (`index.handler` is the export `handler` of `index.mjs` in the task
 * root), then answers the events its parent sends over the IPC channel. The channel keeps the function's
 * own stdout and stderr free for its logs, as on Lambda. Plain JavaScript with node built-ins only: it runs
 * without tsx, next to a bundle that has no node_modules.
 *
 * Usage: node lambda-runtime.mjs <task root> <handler setting> <timeout in seconds>
 * Parent -> child: { id, event }. Child -> parent: { ready: { version } } once loaded, or { failed } when
 * loading threw; then { id, result } or { id, error } per event.
 */
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [taskRoot, handlerSetting, timeoutSeconds] = process.argv.slice(2);
if (!taskRoot || !handlerSetting || !timeoutSeconds || !process.send) {
  throw new Error(
    'usage: node lambda-runtime.mjs <task root> <module.export> <seconds>, with an IPC channel',
  );
}
const send = (message) => process.send(message);
const describe = (error) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

const [moduleName, exportName] = handlerSetting.split('.');
let handler;
try {
  const module = await import(pathToFileURL(join(taskRoot, `${moduleName}.mjs`)).href);
  handler = module[exportName];
  if (typeof handler !== 'function') throw new Error(`${handlerSetting} is not a function`);
} catch (error) {
  send({ failed: describe(error) });
  process.exit(1);
}

let invocations = 0;
process.on('message', async ({ id, event }) => {
  invocations += 1;
  const deadline = Date.now() + Number(timeoutSeconds) * 1000;
  const context = {
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: '$LATEST',
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: `request-${invocations}`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => deadline - Date.now(),
  };
  try {
    send({ id, result: await handler(event, context) });
  } catch (error) {
    send({ id, error: describe(error) });
  }
});
// The parent going away ends the runtime, as Lambda ends an instance.
process.on('disconnect', () => process.exit(0));
send({ ready: { version: process.version } });
