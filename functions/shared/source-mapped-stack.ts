import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The file this code runs from: the bundle on Lambda, a TypeScript source in tests and local mode. */
const ownUrl = import.meta.url;
/** `file:///var/task/index.mjs:1:2345`: a bundle position in an ESM stack frame (no `:` in the path). */
const framePosition = /(file:\/\/[^\s():]+):(\d+):(\d+)/g;
/** A stack longer than this is logged as it is: mapping is for traces, not for whatever an error carries. */
const maxMappedLength = 64 * 1024;

let sourceMap: SourceMap | null | undefined;

/** The bundle's source map, read on first use; null when there is none (unbundled code). */
function ownSourceMap(): SourceMap | null {
  if (sourceMap !== undefined) return sourceMap;
  try {
    const payload = JSON.parse(readFileSync(`${fileURLToPath(ownUrl)}.map`, 'utf8')) as SourceMapPayload;
    sourceMap = new SourceMap(payload);
  } catch {
    sourceMap = null;
  }
  return sourceMap;
}

/**
 * `stack` with each position in the minified bundle replaced by its TypeScript source and line. This
 * does on the rare error what `--enable-source-maps` does on every cold start (parse the map before
 * the first request), so the functions start without it and still log readable stack traces.
 */
export function sourceMappedStack(stack: string): string {
  if (stack.length > maxMappedLength || !stack.includes(ownUrl)) return stack;
  const map = ownSourceMap();
  return map ? mapStackPositions(stack, ownUrl, map) : stack;
}

/** `stack` with each position in `bundleUrl` replaced by the source, line and column `map` gives for it. */
export function mapStackPositions(stack: string, bundleUrl: string, map: SourceMap): string {
  return stack.replace(framePosition, (position, url: string, line: string, column: string) => {
    if (url !== bundleUrl) return position;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry)) return position;
    // Sources are relative to the bundle's folder; what follows the last `../` names the file.
    const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
