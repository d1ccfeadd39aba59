/**
 * The MathML the sanitiser lets through when TeX is on: the elements and attributes KaTeX writes (read
 * from its MathML builder), each attribute only with the values KaTeX gives it. Nothing that links or
 * loads (`href`, `xlink:href`, `src`, `mglyph`, `maction`), no `style`, no `class`; `annotation`, which
 * holds the TeX source, is dropped with its content, as Waline drops it.
 */

/** The MathML elements KaTeX writes, but its `annotation`. */
export const mathmlTags: readonly string[] = [
  'math',
  'semantics',
  'mrow',
  'mi',
  'mn',
  'mo',
  'mtext',
  'mspace',
  'mpadded',
  'mphantom',
  'mstyle',
  'mfrac',
  'msqrt',
  'mroot',
  'msub',
  'msup',
  'msubsup',
  'munder',
  'mover',
  'munderover',
  'mtable',
  'mtr',
  'mtd',
  'menclose',
];

const boolean = /^(?:true|false)$/;
const lengthSource = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:em|pt|px|%|width)?`;
const length = new RegExp(`^${lengthSource}$`);
const lengths = new RegExp(`^${lengthSource}(?: ${lengthSource})*$`);
/** A hex colour or a colour name: KaTeX refuses any other `\color` argument. */
const color = /^(?:#[\da-f]{3,8}|[a-z]+)$/i;
const listOf = (words: string) => new RegExp(`^(?:${words})(?: (?:${words}))*$`);

/** Each attribute KaTeX writes on these elements, with the values it may have. */
const attributeValues = new Map<string, RegExp>(
  Object.entries({
    display: /^(?:block|inline)$/,
    mathvariant:
      /^(?:normal|bold|italic|bold-italic|double-struck|bold-fraktur|script|bold-script|fraktur|sans-serif|bold-sans-serif|sans-serif-italic|sans-serif-bold-italic|monospace)$/,
    mathcolor: color,
    mathbackground: color,
    mathsize: length,
    scriptlevel: /^[+-]?\d$/,
    displaystyle: boolean,
    fence: boolean,
    stretchy: boolean,
    separator: boolean,
    largeop: boolean,
    accent: boolean,
    accentunder: boolean,
    lspace: length,
    rspace: length,
    minsize: length,
    maxsize: length,
    width: length,
    height: length,
    depth: length,
    voffset: length,
    linethickness: length,
    linebreak: /^(?:auto|newline|nobreak|goodbreak|badbreak)$/,
    notation: listOf('[a-z]+'),
    columnalign: listOf('left|center|right'),
    columnspacing: lengths,
    rowspacing: lengths,
    columnlines: listOf('none|solid|dashed'),
    rowlines: listOf('none|solid|dashed'),
  }),
);

/** The attributes the sanitiser may keep on a MathML element. */
export const mathmlAttributes: readonly string[] = [...attributeValues.keys()];

/** A MathML element's attributes, less those KaTeX does not write and those with a value it does not. */
export function keepMathmlAttributes(attribs: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attribs).filter(([name, value]) => attributeValues.get(name)?.test(value) === true),
  );
}
