/** The Node.js binaries the bench runs things on: the project's, and Lambda's when installed. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm ci` puts Lambda's Node.js (tools/node22/package.json). */
const installedLambdaNode = fileURLToPath(
  new URL('../../tools/node22/node_modules/.bin/node', import.meta.url),
);

/** A Node.js to run on: `project` is this process's, `lambda` Lambda's Node 22 (or LAMBDA_NODE_BINARY). */
export interface BenchRuntime {
  readonly runtime: 'project' | 'lambda';
  readonly node: string;
}

/** The project's Node.js, then Lambda's when it is installed. */
export function benchRuntimes(): BenchRuntime[] {
  const lambdaNode = process.env.LAMBDA_NODE_BINARY || installedLambdaNode;
  return [
    { runtime: 'project', node: process.execPath },
    ...(existsSync(lambdaNode) ? [{ runtime: 'lambda' as const, node: lambdaNode }] : []),
  ];
}
