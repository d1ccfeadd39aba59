/**
 * Stands in for `@aws-sdk/credential-provider-node` in the Lambda bundles. Its default chain tries the
 * environment first, and Lambda always sets AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN,
 * so on Lambda the chain never goes further. The SSO, INI, process, web-identity, container and IMDS
 * providers, and the STS/SSO clients they load (about 130 KB minified), are dead weight there.
 */
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** The SDK's default credential chain, reduced to its first link: the environment. */
export const defaultProvider: typeof fromEnv = (init) => fromEnv(init);
