import { randomUUID } from 'node:crypto';
import type { SignedRequest } from './request-handler.js';

/** A middleware of the SDK's stack, loosely typed: this module only passes its arguments on. */
export type Middleware = (next: Next, context: MiddlewareContext) => Next;
type Next = (args: MiddlewareArgs) => Promise<MiddlewareResult>;
interface MiddlewareArgs {
  readonly input: Record<string, unknown>;
  readonly request?: unknown;
}
interface MiddlewareResult {
  readonly response: unknown;
  readonly output?: unknown;
}
interface MiddlewareContext {
  /** What the SDK's endpoint middleware resolved, for this call (`EndpointV2`). */
  readonly endpointV2?: { readonly url: URL; readonly headers?: Record<string, string[]> };
  readonly __smithy_context?: { readonly operation?: string };
}

/** What the deserializer needs of the answer (the SDK's `HttpResponse`). */
interface Answer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
}

/**
 * The data-plane operations: their input and output are JSON as they stand once the document client has
 * marshalled them into attribute values, but for binary attribute values (B, BS: base64 on the wire) and
 * TransactWriteItems' idempotency token, which the SDK fills in when it is missing.
 */
const jsonOperations = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

/** The request of an endpoint, without its body: built once per endpoint the SDK resolves. */
type RequestTemplate = Omit<SignedRequest, 'body'> & { readonly fragment?: string };

/** Whether a call goes through {@link jsonSerializer}: a data-plane operation on an endpoint the SDK resolved. */
export function usesJsonSerializer(context: MiddlewareContext): boolean {
  const operation = context.__smithy_context?.operation;
  return operation !== undefined && jsonOperations.has(operation) && context.endpointV2 !== undefined;
}

/**
 * The build-step middlewares whose work {@link jsonSerializer} does itself: the `host` and `content-length`
 * headers, written from the endpoint and the body it has in hand.
 */
export const headersWrittenByJsonSerializer: ReadonlySet<string> = new Set([
  'contentLengthMiddleware',
  'hostHeaderMiddleware',
]);

/**
 * The serializer of the data-plane operations ({@link usesJsonSerializer} says which calls): `JSON.stringify`
 * of the marshalled input, on the endpoint the SDK's endpoint middleware resolved for the call, with the
 * headers of the AWS JSON 1.0 protocol, and the `host` and `content-length` headers the SDK's build step
 * would add (so that the stack can leave those two middlewares out of this path: client-stack.ts).
 *
 * The SDK's serializer walks the operation's schema member by member, writing JSON a token at a time, and
 * first copies the client's whole configuration into its context (`{ ...config, ...context }`: 51 keys, one of
 * them an accessor, about 10 µs). With the deserializer, 19.9% of the client's CPU (client.ts); this path and
 * jsonDeserializer, 13.8%: JSON.stringify and JSON.parse, which the bare exchange does too.
 */
export function jsonSerializer(serviceTarget: string): Middleware {
  const templates = new WeakMap<object, RequestTemplate>();
  return (next, context) => (args) => {
    const operation = context.__smithy_context!.operation!;
    const endpoint = context.endpointV2!;
    let template = templates.get(endpoint);
    if (!template) {
      template = requestTemplate(endpoint);
      templates.set(endpoint, template);
    }
    const body = encodeInput(operation, args.input);
    const request = {
      ...template,
      query: { ...template.query },
      headers: {
        ...template.headers,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${serviceTarget}.${operation}`,
        'content-length': String(Buffer.byteLength(body)),
      },
      body,
    };
    return next({ ...args, request });
  };
}

/**
 * The deserializer of the data-plane operations: a successful answer is `JSON.parse`d as it stands, with the
 * SDK's `$metadata`. An error or another operation goes through the SDK's deserializer, `sdkDeserializer`,
 * which builds the typed exceptions the retry strategy and the repositories read.
 *
 * The SDK's deserializer walks the output's schema over every value and copies the client's configuration
 * into its context first, as the serializer does.
 */
export function jsonDeserializer(
  sdkDeserializer: Middleware,
  deserializeMetadata: (answer: Answer) => unknown,
): Middleware {
  return (next, context) => async (args) => {
    const received = await next(args);
    const answer = received.response as Answer;
    const operation = context.__smithy_context?.operation;
    const output =
      operation !== undefined &&
      jsonOperations.has(operation) &&
      answer.statusCode >= 200 &&
      answer.statusCode < 300
        ? decodeOutput(answer.body)
        : undefined;
    if (!output) return sdkDeserializer(() => Promise.resolve(received), context)(args);
    output.$metadata = deserializeMetadata(answer);
    return { response: answer, output };
  };
}

/**
 * The JSON body of a data-plane input, as the SDK writes it: binary values in base64, no null members, and a
 * fresh idempotency token for a TransactWriteItems without one.
 */
export function encodeInput(operation: string, input: Record<string, unknown>): string {
  const body =
    operation === 'TransactWriteItems' && input.ClientRequestToken === undefined
      ? { ...input, ClientRequestToken: randomUUID() }
      : input;
  return JSON.stringify(body, function (this: unknown, key: string, value: unknown) {
    if (value === null) return Array.isArray(this) ? null : undefined;
    if (typeof value !== 'object') return value;
    // A Buffer's toJSON has already run: look at the holder's own value.
    const original = (this as Record<string, unknown>)[key];
    return ArrayBuffer.isView(original)
      ? Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('base64')
      : value;
  });
}

/**
 * A data-plane output from its JSON body, binary attribute values (`B`, `BS`: base64 on the wire) turned into
 * bytes as the SDK turns them; undefined when the body is not bytes (another handler's stream: left to the SDK).
 */
export function decodeOutput(body: unknown): Record<string, unknown> | undefined {
  if (!(body instanceof Uint8Array)) return undefined;
  if (body.byteLength === 0) return {};
  const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  const output = JSON.parse(text) as Record<string, unknown>;
  if (binaryKey.test(text)) decodeBinary(output);
  return output;
}

/**
 * The string `"B"` or `"BS"`, as the key of every binary attribute value is written (`"BOOL"` is not one):
 * a scan of the text (12 µs for a Query of 30 items) that spares the walk over every value of an answer
 * without one.
 */
const binaryKey = /"BS?"/;

/**
 * Decodes every `B` (a string) and `BS` (strings) member below `value`. Only an attribute value has such a
 * member: in an item, an attribute named B or BS holds an attribute value (an object), never a string.
 */
function decodeBinary(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) decodeBinary(item);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const member = record[key];
    if (key === 'B' && typeof member === 'string') record.B = fromBase64(member);
    else if (key === 'BS' && Array.isArray(member) && member.every((one) => typeof one === 'string')) {
      record.BS = member.map(fromBase64);
    } else decodeBinary(member);
  }
}

/** Bytes as the SDK's base64 decoder hands them on: a Uint8Array, not a Buffer. */
function fromBase64(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'base64');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The request the SDK's AWS JSON protocol builds on `endpoint`, but for its body and operation headers. */
function requestTemplate(endpoint: NonNullable<MiddlewareContext['endpointV2']>): RequestTemplate {
  const { url } = endpoint;
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(endpoint.headers ?? {})) headers[name] = values.join(', ');
  // As the SDK's host header middleware writes it: the port only when the address has one.
  headers.host ??= url.port ? `${url.hostname}:${url.port}` : url.hostname;
  return {
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`,
    fragment: url.hash || undefined,
    query: Object.fromEntries(url.searchParams),
    headers,
  };
}
