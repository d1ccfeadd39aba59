/** The Lambda context local mode invokes a function with: the local server's HTTP functions and the notifier. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** What differs between the local functions' contexts. */
export interface LocalContextSettings {
  /** As the stack names it (`marginalia-comment`, say). */
  readonly functionName: string;
  /** The function's timeout: getRemainingTimeInMillis counts down from it. */
  readonly timeoutMs: number;
  readonly memoryLimitInMB: number;
}

/** A fresh context for one invocation (a new request id, the clock started now). */
export function localLambdaContext(settings: LocalContextSettings): Context {
  const deadline = Date.now() + settings.timeoutMs;
  const name = settings.functionName;
  const region = process.env.AWS_REGION || 'us-east-1';
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${name}`,
    memoryLimitInMB: String(settings.memoryLimitInMB),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
