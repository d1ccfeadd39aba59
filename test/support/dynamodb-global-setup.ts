import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../scripts/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The endpoint of the DynamoDB Local this test run shares. */
    dynamoEndpoint: string;
  }
}

/** Starts one in-memory DynamoDB Local for the test run, provides its endpoint, and stops it at the end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dynamoDb = await startDynamoDbLocal({});
  project.provide('dynamoEndpoint', dynamoDb.endpoint);
  return async () => {
    await dynamoDb.stop();
  };
}
