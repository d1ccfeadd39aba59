import { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  type IFunction,
  ParamsAndSecretsLayerVersion,
  ParamsAndSecretsLogLevel,
  ParamsAndSecretsVersions,
} from 'aws-cdk-lib/aws-lambda';

/**
 * The Parameters and Secrets extension, through which the functions read their SSM SecureStrings (a layer
 * with its own cache) rather than with an SSM client in the bundle: 76 KiB less code to load on a cold start.
 */
export function parametersExtension(): ParamsAndSecretsLayerVersion {
  return ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103, {
    logLevel: ParamsAndSecretsLogLevel.WARN,
    // The extension's own cache (300 s by default) sits under the function's: kept short, so a rotated
    // secret reaches an instance that re-reads it (after SECRETS_CACHE_SECONDS, or on a signature that
    // fails) within half a minute, not five.
    parameterStoreTtl: Duration.seconds(30),
  });
}

/**
 * Lets `fn` read the one SSM parameter `name` (with or without its leading `/`), and no other. A
 * SecureString under the AWS managed key is decrypted by SSM for any caller allowed to read it.
 */
export function allowParameterRead(fn: IFunction, name: string): void {
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ['ssm:GetParameter'],
      resources: [
        Stack.of(fn).formatArn({
          service: 'ssm',
          resource: 'parameter',
          resourceName: name.replace(/^\//, ''),
        }),
      ],
    }),
  );
}
