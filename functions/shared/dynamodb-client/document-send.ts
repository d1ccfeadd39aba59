import type { marshallOptions, unmarshallOptions } from '@aws-sdk/util-dynamodb';
import { marshallValue, unmarshallValue } from './attribute-values.js';

/**
 * Which members of a command's input or output hold plain values to marshall, as lib-dynamodb's commands
 * describe them (`inputKeyNodes`, `outputKeyNodes`): `null` the member itself, `{}` or `[]` each of its
 * entries or elements, `{ '*': nodes }` the same nodes in each entry or element, and other keys those members.
 */
type KeyNodes = null | readonly unknown[] | { readonly [member: string]: KeyNodes };

/** What this module reads of a lib-dynamodb command. */
interface DocumentCommand {
  readonly input: Record<string, unknown>;
  readonly inputKeyNodes: KeyNodes;
  readonly outputKeyNodes: KeyNodes;
  /** The client command the document command wraps: its class is the one sent. */
  readonly clientCommand: ClientCommand;
}

/** What this module reads of a client command. */
interface ClientCommand {
  readonly input: unknown;
  resolveMiddleware(stack: unknown, config: unknown, options: unknown): Handler;
}
type Handler = (command: ClientCommand) => Promise<{ output: Record<string, unknown> }>;
type ClientCommandClass = new (input: unknown) => ClientCommand;

/** How values are marshalled on the way in and out: the document client's translation options. */
export interface Translation {
  readonly marshall: marshallOptions;
  readonly unmarshall: unmarshallOptions;
}

/** A document client's `send`: a lib-dynamodb command in, its plain-valued output out. */
export type DocumentSend = (command: unknown, options?: unknown) => Promise<unknown>;

const isDocumentCommand = (command: unknown): command is DocumentCommand =>
  typeof command === 'object' &&
  command !== null &&
  'clientCommand' in command &&
  'inputKeyNodes' in command &&
  'outputKeyNodes' in command;

/**
 * The document client's `send`, with the middleware stack resolved once per command class instead of per call.
 *
 * lib-dynamodb's commands add their marshalling middleware to the client command's stack on every call, then
 * the SDK joins the client's stack with the command's twice (the document command's, then the client
 * command's), copies and sorts every entry and builds the handler chain anew: on Node 20, a profile of 5,000
 * GetItems put 66 µs a call there (@smithy/core's stack: `concat`, `getMiddlewareList`, `addRelativeTo`,
 * `sort`, `resolve`) and 21 µs in lib-dynamodb's walk of the input and output. The SDK's own answer is its
 * `cacheMiddleware` option (a handler per command class, reused), which lib-dynamodb refuses, because its
 * handler closes over the first command's input. This does the same with the marshalling taken out of the
 * stack: the input marshalled as util-dynamodb does (the functions lib-dynamodb calls, with the same options,
 * maps on null-prototype objects: attribute-values.ts), the client command sent through the handler its class
 * resolved on its first call, the output unmarshalled.
 * A cached handler shares its call context between calls, as with `cacheMiddleware`: the middlewares left in
 * the stack (client-stack.ts) write only what is the same for every call of a class (endpoint, auth scheme).
 *
 * `client` is the stack and the configuration to resolve with. A call with options (an abort signal)
 * resolves its own stack, as the SDK does; anything that is not a lib-dynamodb command goes to `fallback`.
 */
export function createDocumentSend(
  client: { readonly middlewareStack: unknown; readonly config: unknown },
  translation: Translation,
  fallback: DocumentSend,
): DocumentSend {
  const handlers = new Map<ClientCommandClass, Handler>();
  const handlerOf = (command: ClientCommand, options: unknown): Handler => {
    if (options !== undefined)
      return command.resolveMiddleware(client.middlewareStack, client.config, options);
    const commandClass = command.constructor as ClientCommandClass;
    let handler = handlers.get(commandClass);
    if (!handler) {
      handler = command.resolveMiddleware(client.middlewareStack, client.config, undefined);
      handlers.set(commandClass, handler);
    }
    return handler;
  };
  const toAttributes = (value: unknown) => marshallValue(value, translation.marshall);
  const fromAttributes = (value: unknown) => unmarshallValue(value, translation.unmarshall);
  return async (command, options) => {
    if (!isDocumentCommand(command)) return fallback(command, options);
    const commandClass = command.clientCommand.constructor as ClientCommandClass;
    const clientCommand = new commandClass(translate(command.input, command.inputKeyNodes, toAttributes));
    const { output } = await handlerOf(clientCommand, options)(clientCommand);
    return translate(output, command.outputKeyNodes, fromAttributes);
  };
}

/**
 * A copy of `value` with the members `nodes` names passed through `convert`; the rest as it is, functions
 * left out (as lib-dynamodb does), members that convert to undefined dropped. Objects are copied onto null
 * prototypes: their keys are attribute and table names, and a name such as `__proto__` must stay a name.
 */
export function translate(value: unknown, nodes: KeyNodes, convert: (value: unknown) => unknown): unknown {
  if (value === undefined) return undefined;
  if (nodes === null) return convert(value);
  if (typeof value !== 'object' || value === null) return value;
  const names = Object.keys(nodes);
  if (names.length === 0) return mapEntries(value, (entry) => convert(entry));
  if (names.length === 1 && names[0] === '*') {
    const inner = (nodes as { readonly '*': KeyNodes })['*'];
    return mapEntries(value, (entry) => translate(entry, inner, convert));
  }
  const copy = mapEntries(value, (entry) => entry) as Record<string, unknown>;
  for (const name of names) {
    const member = (value as Record<string, unknown>)[name];
    if (typeof member === 'function') continue;
    const converted = translate(member, (nodes as Record<string, KeyNodes>)[name]!, convert);
    if (converted !== undefined) copy[name] = converted;
  }
  return copy;
}

/**
 * Each entry of an object (into a null-prototype object) or element of an array through `each`, functions and
 * undefined results left out.
 */
function mapEntries(value: object, each: (entry: unknown) => unknown): unknown {
  if (Array.isArray(value)) {
    const elements: unknown[] = [];
    for (const element of value) {
      if (typeof element === 'function') continue;
      const converted = each(element);
      if (converted !== undefined) elements.push(converted);
    }
    return elements;
  }
  const entries = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(value)) {
    const entry = (value as Record<string, unknown>)[name];
    if (typeof entry === 'function' || entry === undefined) continue;
    const converted = each(entry);
    if (converted !== undefined) entries[name] = converted;
  }
  return entries;
}
