import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, type ParamsAndSecretsLayerVersion, Runtime } from 'aws-cdk-lib/aws-lambda';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { lambdaBundleOptions, projectRoot } from './bundle-options.js';

const lockFile = fileURLToPath(new URL('../package-lock.json', import.meta.url));

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
   * cost and on its share of the account. Default none (the unreserved pool).
   */
  readonly reservedConcurrentExecutions?: number;
}

/**
 * A NodejsFunction with the house defaults: Node.js 22 on arm64, ESM bundle with source maps, own log
 * group, and its own role that may write to that log group only.
 */
export class MarginaliaFunction extends Construct {
  /** The Lambda function. */
  readonly function: NodejsFunction;
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

    this.function = new NodejsFunction(this, 'Function', {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      // Graviton: cheaper per GB-second than x86 and at least as fast for this workload.
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      // The Lambda default is 3 s; a DynamoDB retry storm can outlast that, and API Gateway waits up to 30 s.
      timeout: Duration.seconds(10),
      logGroup: this.logGroup,
      role,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      projectRoot,
      depsLockFilePath: lockFile,
      environment: props.environment ? { ...props.environment } : undefined,
      bundling: bundling(),
      paramsAndSecrets: props.paramsAndSecrets,
    });
  }
}

/** lib/bundle-options.ts in the CDK's terms; what it has no field for goes to esbuild as arguments. */
function bundling(): BundlingOptions {
  const options = lambdaBundleOptions();
  return {
    format: OutputFormat.ESM,
    target: options.target,
    minify: options.minify,
    sourceMap: options.sourcemap,
    sourcesContent: options.sourcesContent,
    mainFields: [...options.mainFields],
    banner: options.banner,
    esbuildArgs: {
      '--charset': options.charset,
      '--alias': Object.entries(options.alias).map(([name, target]) => `${name}=${target}`),
    },
    // CDK leaves `@aws-sdk/*` out by default and relies on the runtime's copy; bundling pins the
    // version we test against and lets esbuild drop the parts we do not use.
    bundleAwsSDK: true,
    externalModules: [],
    // No Docker: bundle with the esbuild from devDependencies.
    forceDockerBundling: false,
  };
}
