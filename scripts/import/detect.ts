/** Recognises the format of an input file by its content, and dispatches to the format's reader. */
import { readArtalk } from './formats/artalk.js';
import { readDisqus } from './formats/disqus.js';
import { readLeanCloud } from './formats/leancloud.js';
import { readTwikoo } from './formats/twikoo.js';
import { readWaline, walineDocument } from './formats/waline.js';
import { jsonRows, wholeJson } from './json-rows.js';
import {
  BadInputError,
  type InputFile,
  type ParsedSource,
  type ReadOptions,
  type SourceFormat,
} from './source.js';

/** The format of one file, from its first bytes and its first record. */
export function detectFormat(file: InputFile): SourceFormat {
  const start = file.text.trimStart();
  if (start.startsWith('<')) return 'disqus';
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

const readers: Record<SourceFormat, (files: readonly InputFile[], options: ReadOptions) => ParsedSource> = {
  waline: readWaline,
  valine: readLeanCloud,
  twikoo: readTwikoo,
  disqus: readDisqus,
  artalk: readArtalk,
};

/** Reads `files` as `from`, or as the one format they are all detected as. */
export function readSource(
  files: readonly InputFile[],
  options: ReadOptions & { from?: SourceFormat },
): ParsedSource {
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
  return readers[format](files, options);
}
