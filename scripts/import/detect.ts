/** Recognises the format of an input file by its content, and dispatches to the format's reader. */
import { readArtalk } from './formats/artalk.js';
import { readDisqus } from './formats/disqus.js';
import { readLeanCloud } from './formats/leancloud.js';
import { readTwikoo } from './formats/twikoo.js';
import { readWaline, walineDocument } from './formats/waline.js';
import { jsonRows, wholeJson } from './json-rows.js';
import { looksLikeXml, wholeText } from './read-input.js';
import {
  BadInputError,
  type Input,
  type InputFile,
  type ParsedSource,
  type ReadOptions,
  type SourceFormat,
} from './source.js';

/** The format of one file, from its first bytes and its first record. */
export function detectFormat(file: Input): SourceFormat {
  // Only what looks like XML is streamed.
  if (!('text' in file) || looksLikeXml(file.text)) return 'disqus';
  const start = file.text.trimStart();
  if (start.startsWith('#filetype')) return 'valine';
  if (walineDocument(wholeJson(file))) return 'waline';
  const first = jsonRows(file)[0]?.row;
  if (!first) throw new BadInputError(`${file.name}: no records, cannot tell its format (use --from)`);
  if ('page_key' in first || ('content' in first && 'rid' in first)) return 'artalk';
  if ('_id' in first || typeof first.created === 'number' || 'mailMd5' in first) return 'twikoo';
  if ('objectId' in first) return 'valine';
  throw new BadInputError(
    `${file.name}: unknown format (the first record has ${Object.keys(first).slice(0, 6).join(', ')}); use --from`,
  );
}

/** The readers of whole text; Disqus is read apart, as a stream. */
const textReaders: Record<
  Exclude<SourceFormat, 'disqus'>,
  (files: readonly InputFile[], options: ReadOptions) => ParsedSource
> = {
  waline: readWaline,
  valine: readLeanCloud,
  twikoo: readTwikoo,
  artalk: readArtalk,
};

/** Reads `files` as `from`, or as the one format they are all detected as. */
export async function readSource(
  files: readonly Input[],
  options: ReadOptions & { from?: SourceFormat },
): Promise<ParsedSource> {
  if (files.length === 0) throw new BadInputError('no input files');
  let format = options.from;
  if (!format) {
    const detected = new Set(files.map(detectFormat));
    if (detected.size > 1) {
      throw new BadInputError(
        `the files are of different formats (${[...detected].join(', ')}); import them one at a time`,
      );
    }
    format = [...detected][0] as SourceFormat;
  }
  if (format === 'disqus') return readDisqus(files, options);
  // A streamed file read as a JSON format (`--from`) is read whole: JSON is parsed in one piece.
  return textReaders[format](await Promise.all(files.map(wholeText)), options);
}
