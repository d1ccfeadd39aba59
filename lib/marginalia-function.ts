import { copyFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import {
  AssetHashType,
  DockerImage,
  Duration,
  type ILocalBundling,
  RemovalPolicy,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  type CfnFunction,
  Code,
  Function as LambdaFunction,
  type ParamsAndSecretsLayerVersion,
  Runtime,
} from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { lambdaBundleOptions, projectRoot, toEsbuildOptions } from './bundle-options.js';

/** Settings of one Marginalia Lambda function; everything but the entry has a house default. */
export interface MarginaliaFunctionProps {
  /** Absolute path of the TypeScript module that exports `handler`. */
  readonly entry: string;
  /** Shown in the Lambda console. */
  readonly description?: string;
  /** Environment variables. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Memory in MB; default 512 (Lambda CPU grows with memory, and 512 MB keeps cold starts short). */
  readonly memorySize?: number;
  /** How long the function's logs are kept; default one month. */
  readonly logRetention?: RetentionDays;
  /** The Parameters and Secrets extension layer, for a function that reads SSM parameters; default none. */
  readonly paramsAndSecrets?: ParamsAndSecretsLayerVersion;
  /**
   * Instances that may run at once, reserved out of the account's regional pool: a ceiling on the function's
   * cost and on its share of the account. Default none (the unreserved pool): Lambda refuses a reservation
   * that leaves fewer than 100 unreserved, which a new account's quota (10) cannot give.
   */
  readonly reservedConcurrentExecutions?: number;
  /** Longest run of one invocation; default 10 s. */
  readonly timeout?: Duration;
  /**
   * Where an asynchronous invocation (a schedule, an SNS message) goes once Lambda has given up retrying it;
   * default none (it is dropped).
   */
  readonly deadLetterQueue?: IQueue;
  /**
   * Files the function reads at run time, copied beside its bundle (in `LAMBDA_TASK_ROOT`) under their own names:
   * data too large for the bundle (the comment function's region database). Default none.
   */
  readonly dataFiles?: readonly string[];
}

/**
 * A Lambda function with the house defaults: Node.js 22 on arm64, an ESM bundle split into chunks with
 * source maps, own log group, and its own role that may write to that log group only.
 */
export class MarginaliaFunction extends Construct {
  /** The Lambda function. */
  readonly function: LambdaFunction;
  /** The function's log group, created here so its retention is ours to set. */
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: MarginaliaFunctionProps) {
    super(scope, id);

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      // A LogGroup is retained by default; operational logs should go with the stack, not linger unowned.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Our own role instead of the default one with AWSLambdaBasicExecutionRole, whose log statement covers
    // every log group in the account (`*`): this one may write to its own log group only, which exists
    // before the function, so no logs:CreateLogGroup either.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    this.logGroup.grantWrite(role);

    this.function = new LambdaFunction(this, 'Function', {
      code: bundledCode(props.entry, props.dataFiles ?? []),
      handler: 'index.handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      // Graviton: cheaper per GB-second than x86 and at least as fast for this workload.
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      // The Lambda default is 3 s; a DynamoDB retry storm can outlast that, and API Gateway waits up to 30 s.
      timeout: props.timeout ?? Duration.seconds(10),
      logGroup: this.logGroup,
      role,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment: props.environment ? { ...props.environment } : undefined,
      paramsAndSecrets: props.paramsAndSecrets,
      deadLetterQueue: props.deadLetterQueue,
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'nodejs22.x is maintained until April 2027 and is what the bundles target and the benchmarks ' +
        'measure (lib/bundle-options.ts); moving to nodejs24.x is planned with a benchmark run.',
    });
  }

  /** The function's environment as CloudFormation will get it: literal strings, or intrinsics where unresolved. */
  environment(): Record<string, unknown> {
    const cfn = this.function.node.defaultChild as CfnFunction;
    const resolved = Stack.of(this).resolve(cfn.environment) as
      { variables?: Record<string, unknown> } | undefined;
    return resolved?.variables ?? {};
  }
}

/**
 * Bundling by esbuild with lib/bundle-options.ts' settings, on this machine, with the esbuild of
 * devDependencies. Not NodejsFunction's bundling: it builds one file (`--outfile`), and code splitting
 * writes a folder.
 */
class EsbuildBundling implements ILocalBundling {
  /**
   * `entry` is a property, not only a closure variable: CDK caches staged assets under a key made from
   * the bundling options as JSON, where a function is invisible, so two functions would share one asset.
   */
  constructor(
    readonly entry: string,
    readonly dataFiles: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    buildSync({
      ...toEsbuildOptions(lambdaBundleOptions(), { entry: this.entry, outdir: outputDir }),
      logLevel: 'warning',
    });
    // Read from the installed packages: no download, so synth works offline.
    for (const file of this.dataFiles) copyFileSync(file, `${outputDir}/${basename(file)}`);
    return true;
  }
}

/** The code asset: `entry` bundled (EsbuildBundling), with `dataFiles` beside it. */
function bundledCode(entry: string, dataFiles: readonly string[]): Code {
  return Code.fromAsset(projectRoot, {
    // The asset is what esbuild wrote: hashed from that, not from the whole project folder.
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // The type asks for an image; local bundling succeeds or throws, so it is never pulled (NodejsFunction
      // names the same placeholder when it bundles locally).
      image: DockerImage.fromRegistry('dummy'),
      local: new EsbuildBundling(relative(projectRoot, entry), dataFiles),
    },
  });
}
