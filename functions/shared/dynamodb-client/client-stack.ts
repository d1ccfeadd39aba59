import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { once } from '../once.js';
import {
  headersWrittenByJsonSerializer,
  jsonDeserializer,
  jsonSerializer,
  type Middleware,
  usesJsonSerializer,
} from './json-serde.js';

type Stack = DynamoDBClient['middlewareStack'];

/** The parts of the client's resolved configuration the edits below use. */
interface ClientConfig {
  readonly region: () => Promise<string>;
  readonly credentials: (properties: object) => Promise<unknown>;
  readonly httpAuthSchemes: readonly { readonly schemeId: string; readonly signer: unknown }[];
  readonly protocol: { deserializeMetadata(answer: unknown): unknown };
  /** The SDK's signer provider: a SignatureV4 for an endpoint's auth scheme. */
  signer: (authScheme?: unknown) => Promise<unknown>;
}

/** What the endpoint middleware leaves in the context of a call, and the auth middleware fills in. */
interface CallContext {
  readonly authSchemes?: readonly {
    readonly signingRegion?: string;
    readonly signingName?: string;
    readonly signingRegionSet?: string[];
    readonly properties?: object;
  }[];
  __smithy_context?: Record<string, unknown>;
}

/**
 * Takes out of the DynamoDB client's middleware stack what it does per call for nothing we use, keeping
 * what it sends and how it signs, retries and reports errors (client.ts has the profile, before and after):
 *
 * - the logger middleware: a redacted copy of every input and output for the SDK's no-op logger (a fifth
 *   of a 30-item Query): gone;
 * - the serializer and deserializer: JSON for the data-plane operations (json-serde.ts), the SDK's for the
 *   rest and for errors;
 * - the signer provider: a new SignatureV4 per call, built from a copy of the whole configuration: one kept;
 * - the auth scheme middleware: DynamoDB's one scheme chosen directly;
 * - the user agent, rebuilt per call: built once;
 * - the stack itself, which the SDK builds anew for each call, twice (the document command's, then the
 *   client command's), copying, normalizing and sorting every entry: everything from the auth scheme to the
 *   signer (the build step's content length, user agent, host and recursion detection, then the retry loop
 *   and the signer inside it) runs as one entry, in the SDK's order. 12 entries per call become 5. On the
 *   data-plane path the serializer writes the host and content length itself, and those two are left out.
 */
export function trimMiddleware(client: DynamoDBClient): void {
  const stack = client.middlewareStack;
  const config = client.config as unknown as ClientConfig;
  const sdk = middlewareByName(stack);
  stack.remove('loggerMiddleware');
  const build = stepNames(stack, 'build');
  const finalize = stepNames(stack, 'finalizeRequest');
  const authScheme = sigV4AuthScheme(config);
  const buildStep = new Map(
    build.map((name) => [name, name === 'getUserAgentMiddleware' ? reusedUserAgent(sdk(name)) : sdk(name)]),
  );
  const finalizeStep = finalize.map(sdk);
  // The retry loop, then the signer: each attempt is signed anew.
  const sdkChain = [authScheme, sdk('serializerMiddleware'), ...buildStep.values(), ...finalizeStep];
  const jsonChain = [
    authScheme,
    jsonSerializer('DynamoDB_20120810'),
    ...[...buildStep].filter(([name]) => !headersWrittenByJsonSerializer.has(name)).map(([, step]) => step),
    ...finalizeStep,
  ];
  for (const name of ['httpAuthSchemeMiddleware', ...build, ...finalize]) stack.remove(name);
  const serializeToSign: Middleware = (next, context) => {
    const json = jsonChain.reduceRight((handler, middleware) => middleware(handler, context), next);
    const other = sdkChain.reduceRight((handler, middleware) => middleware(handler, context), next);
    return (args) => (usesJsonSerializer(context) ? json(args) : other(args));
  };
  stack.add(serializeToSign as never, { name: 'serializerMiddleware', step: 'serialize', override: true });
  stack.add(
    jsonDeserializer(sdk('deserializerMiddleware'), (answer) =>
      config.protocol.deserializeMetadata(answer),
    ) as never,
    { name: 'deserializerMiddleware', step: 'deserialize', override: true },
  );
  reuseSigner(config);
}

/** The SDK's own middleware of a stack by name, to wrap or fall back to; throws when one is missing. */
function middlewareByName(stack: Stack): (name: string) => Middleware {
  const found = new Map<string, Middleware>();
  const collect = (middleware: unknown, entry: { name?: string }) => {
    if (entry.name) found.set(entry.name, middleware as Middleware);
  };
  stack.applyToStack({ add: collect, addRelativeTo: collect, identifyOnResolve: () => false } as never);
  return (name) => {
    const middleware = found.get(name);
    if (!middleware)
      throw new Error(`the DynamoDB client has no ${name}: check client-stack.ts against the SDK`);
    return middleware;
  };
}

/** The names of a step's middlewares, in the order the SDK runs them. */
function stepNames(stack: Stack, step: 'build' | 'finalizeRequest'): string[] {
  return stack
    .identify()
    .filter((line) => line.endsWith(` - ${step}`))
    .map((line) => line.split(' ')[0]!);
}

/**
 * Runs the SDK's user-agent middleware on the first call and sets the headers it wrote on every later one:
 * the SDK rebuilt the user agent per call, escaping it pair by pair with the call's feature flags. The
 * flags are the first call's (the document client's, the retry mode's).
 */
function reusedUserAgent(sdkUserAgent: Middleware): Middleware {
  let headers: Record<string, string> | undefined;
  return (next, context) => (args) => {
    if (headers) {
      Object.assign((args.request as { headers: Record<string, string> }).headers, headers);
      return next(args);
    }
    return sdkUserAgent((built) => {
      const written = (built.request as { headers: Record<string, string | undefined> }).headers;
      headers ??= Object.fromEntries(
        ['user-agent', 'x-amz-user-agent'].flatMap((name) => (written[name] ? [[name, written[name]]] : [])),
      );
      return next(built);
    }, context)(args);
  };
}

/**
 * Chooses DynamoDB's one auth scheme, SigV4 with the client's region and credentials, as the SDK's generic
 * middleware does, without its per-call options list, preference lookup, Map of schemes and identity
 * config. It runs after the endpoint middleware, so it applies the endpoint's auth properties itself (as
 * that middleware does to a scheme chosen before it; DynamoDB's endpoints have none today).
 */
function sigV4AuthScheme(config: ClientConfig): Middleware {
  const scheme = config.httpAuthSchemes.find((candidate) => candidate.schemeId === 'aws.auth#sigv4');
  if (!scheme) throw new Error('the DynamoDB client has no SigV4 auth scheme: check client-stack.ts');
  return (next, context) => async (args) => {
    const call = context as CallContext;
    const endpointScheme = call.authSchemes?.[0];
    call.__smithy_context ??= {};
    call.__smithy_context.selectedHttpAuthScheme = {
      httpAuthOption: {
        schemeId: scheme.schemeId,
        identityProperties: {},
        // What the SDK's DynamoDB auth provider sets; the signer reads the configuration and context here.
        signingProperties: {
          name: 'dynamodb',
          region: await config.region(),
          config,
          context,
          ...(endpointScheme && {
            signing_region: endpointScheme.signingRegion,
            signingRegion: endpointScheme.signingRegion,
            signing_service: endpointScheme.signingName,
            signingName: endpointScheme.signingName,
            signingRegionSet: endpointScheme.signingRegionSet,
            ...endpointScheme.properties,
          }),
        },
      },
      identity: await config.credentials({}),
      signer: scheme.signer,
    };
    return next(args);
  };
}

/**
 * Keeps the signer the SDK builds for DynamoDB's default auth scheme, which it built anew per call from a
 * copy of the whole client configuration (51 keys, one an accessor: about 10 µs). The one kept has the same
 * region, service and credential provider (the SDK pins the first call's region and service on the
 * configuration anyway), and that provider still refreshes expiring credentials.
 */
function reuseSigner(config: ClientConfig): void {
  const sdkSigner = config.signer;
  const defaultSigner = once(() => sdkSigner());
  config.signer = (authScheme) => (authScheme !== undefined ? sdkSigner(authScheme) : defaultSigner());
}
