import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../scripts/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The endpoint of the DynamoDB Local this test run shares. */
    dynamoEndpoint: string;
  }
}

/**
 * Vitest runs a global setup once per project that lists it, each in its own module instance. The projects
 * share the main process, though, so the engine and a count of its users live on globalThis: the first
 * project starts it, the last one to finish stops it.
 */
const shared = globalThis as typeof globalThis & {
  marginaliaDynamoDb?: { engine: Promise<DynamoDbLocal>; users: number };
};

/** Starts one in-memory DynamoDB Local for the test run, provides its endpoint, and stops it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  shared.marginaliaDynamoDb ??= { engine: startDynamoDbLocal({}), users: 0 };
  const state = shared.marginaliaDynamoDb;
  state.users += 1;
  project.provide('dynamoEndpoint', (await state.engine).endpoint);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    delete shared.marginaliaDynamoDb;
    await (await state.engine).stop();
  };
}
