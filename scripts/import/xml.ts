/**
 * A small XML reader, enough for Disqus exports: elements, attributes, text, CDATA, entities;
 * comments, processing instructions and DOCTYPE skipped. No namespaces resolution: names keep
 * their prefix (`dsq:id`).
 */
import { BadInputError } from './source.js';

/** An element with its attributes, child elements and concatenated text. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return entities[name] ?? whole;
  });
}

/** Parses `source` into its root element; a malformed document throws with the line of the fault. */
export function parseXml(source: string, fileName: string): XmlElement {
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  const fail = (index: number, rule: string): never => {
    throw new BadInputError(`${fileName} line ${lineAt(index)}: ${rule}`);
  };
  const document: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [document];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf('<', at);
    const current = stack[stack.length - 1] as XmlElement;
    if (open === -1) {
      current.text += decodeEntities(source.slice(at));
      break;
    }
    current.text += decodeEntities(source.slice(at, open));
    if (source.startsWith('<![CDATA[', open)) {
      const end = source.indexOf(']]>', open);
      if (end === -1) fail(open, 'CDATA section is not closed');
      current.text += source.slice(open + 9, end);
      at = end + 3;
    } else if (source.startsWith('<!--', open)) {
      const end = source.indexOf('-->', open);
      if (end === -1) fail(open, 'comment is not closed');
      at = end + 3;
    } else if (source.startsWith('<?', open) || source.startsWith('<!', open)) {
      const end = source.indexOf('>', open);
      if (end === -1) fail(open, 'declaration is not closed');
      at = end + 1;
    } else if (source.startsWith('</', open)) {
      const end = source.indexOf('>', open);
      if (end === -1) fail(open, 'closing tag is not closed');
      const name = source.slice(open + 2, end).trim();
      if (stack.length < 2 || current.name !== name)
        fail(open, `</${name}> does not close <${current.name}>`);
      stack.pop();
      at = end + 1;
    } else {
      const tag = /^<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        source.slice(open),
      );
      if (!tag) return fail(open, 'malformed start tag');
      const [whole, name = '', rawAttributes = '', selfClosing] = tag;
      const attributes: Record<string, string> = {};
      for (const attribute of rawAttributes.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        attributes[attribute[1] as string] = decodeEntities(attribute[2] ?? attribute[3] ?? '');
      }
      const element: XmlElement = { name, attributes, children: [], text: '' };
      current.children.push(element);
      if (!selfClosing) stack.push(element);
      at = open + whole.length;
    }
  }
  if (stack.length > 1)
    fail(source.length, `<${(stack[stack.length - 1] as XmlElement).name}> is never closed`);
  const root = document.children[0];
  if (!root) return fail(0, 'no root element');
  return root;
}

/** The first child named `name`. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((candidate) => candidate.name === name);
}

/** The trimmed text of the first child named `name`, or ''. */
export function childText(element: XmlElement, name: string): string {
  return child(element, name)?.text.trim() ?? '';
}
