/**
 * Reads an XML document of any size as a stream of records, the children of its root (a Disqus
 * export's `<thread>` and `<post>`), with saxes: each record is built as a small tree, handed over
 * once it closes and then dropped, so memory holds one record whatever the size of the file.
 * Namespaces are not resolved: names keep their prefix (`dsq:id`).
 */
import { SaxesParser } from 'saxes';
import { BadInputError } from './source.js';

/** An element with its attributes, child elements and concatenated text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** What {@link xmlRecords} is told about the document. */
export interface XmlRecordOptions {
  /** The name the root element must have. */
  readonly root: string;
  /**
   * The most characters one record may hold (names, attribute values and text together), and one
   * piece of text or markup the parser has not finished yet: a file without them stops with an error
   * instead of filling the memory.
   */
  readonly maxChars?: number;
}

/** {@link XmlRecordOptions.maxChars} by default: a Disqus post is a few KB, its message well under this. */
export const defaultMaxChars = 16 * 1024 * 1024;

/**
 * Yields each child element of the root of the UTF-8 document in `chunks` as soon as it is closed; a
 * malformed document throws a {@link BadInputError} naming `fileName` and the line of the fault.
 */
export async function* xmlRecords(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  fileName: string,
  options: XmlRecordOptions,
): AsyncGenerator<XmlElement, void, undefined> {
  const maxChars = options.maxChars ?? defaultMaxChars;
  const parser = new SaxesParser();
  const fail = (rule: string): never => {
    throw new BadInputError(`${fileName} line ${parser.line}: ${rule}`);
  };
  const closed: XmlElement[] = [];
  /** The record being built, its outermost element first. */
  const open: XmlElement[] = [];
  let depth = 0;
  let recordChars = 0;
  /** Characters written since saxes last reported something: what it holds and has not handed over. */
  let unreported = 0;
  const reported = () => {
    unreported = 0;
  };
  const hold = (chars: number) => {
    recordChars += chars;
    if (recordChars > maxChars) fail(`<${open[0]?.name}> holds more than ${maxChars} characters`);
  };

  parser.on('error', (error) => {
    // An entity XML does not define (`&nbsp;` in an HTML message) is kept as written, not refused.
    if (error.message.endsWith('undefined entity.')) return;
    fail(error.message.replace(/^\d+:\d+: /, ''));
  });
  parser.on('opentag', (tag) => {
    reported();
    depth++;
    if (depth === 1) {
      if (tag.name !== options.root)
        throw new BadInputError(`${fileName}: the root element must be <${options.root}>`);
      return;
    }
    const element: XmlElement = { name: tag.name, attributes: tag.attributes, children: [], text: '' };
    open.at(-1)?.children.push(element);
    open.push(element);
    hold(
      Object.entries(tag.attributes).reduce(
        (sum, [name, value]) => sum + name.length + value.length,
        tag.name.length,
      ),
    );
  });
  parser.on('closetag', () => {
    reported();
    depth--;
    const element = open.pop();
    if (element && open.length === 0) {
      closed.push(element);
      recordChars = 0;
    }
  });
  const addText = (text: string) => {
    reported();
    const element = open.at(-1);
    // Text between records (indentation) belongs to no record.
    if (!element) return;
    hold(text.length);
    element.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  for (const event of ['comment', 'processinginstruction', 'doctype', 'xmldecl'] as const) {
    parser.on(event, reported);
  }

  // Bytes are decoded here, not by the parser, so a character split between two chunks stays whole.
  const decoder = new TextDecoder();
  const write = (text: string) => {
    unreported += text.length;
    parser.write(text);
    // Counted a chunk at a time, so the bound is overshot by at most one chunk.
    if (unreported > maxChars) fail(`a piece of text or markup longer than ${maxChars} characters`);
  };
  for await (const chunk of chunks) {
    write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    yield* closed.splice(0);
  }
  write(decoder.decode());
  parser.close();
  yield* closed.splice(0);
}

/** The first child named `name`. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((candidate) => candidate.name === name);
}

/** The trimmed text of the first child named `name`, or ''. */
export function childText(element: XmlElement, name: string): string {
  return child(element, name)?.text.trim() ?? '';
}
