import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The file this code runs from: the bundle on Lambda, a TypeScript source in tests and local mode. */
const ownUrl = import.meta.url;
/**
 * The bundle's folder, which holds index.mjs and, in `chunks/`, its chunks (lib/bundle-options.ts); this
 * code is in one or the other.
 */
const bundleFolder = ownUrl.slice(0, ownUrl.lastIndexOf('/') + 1).replace(/chunks\/$/, '');
/** `file:///var/task/index.mjs:1:2345`: a bundle position in an ESM stack frame (no `:` in the path). */
const framePosition = /(file:\/\/[^\s():]+):(\d+):(\d+)/g;
/** A stack longer than this is logged as it is: mapping is for traces, not for whatever an error carries. */
const maxMappedLength = 64 * 1024;

/** The source map of each bundle file, read on first use; null when there is none (unbundled code). */
const sourceMaps = new Map<string, SourceMap | null>();

function sourceMapOf(fileUrl: string): SourceMap | null {
  let map = sourceMaps.get(fileUrl);
  if (map === undefined) {
    try {
      const payload = JSON.parse(readFileSync(`${fileURLToPath(fileUrl)}.map`, 'utf8')) as SourceMapPayload;
      map = new SourceMap(payload);
    } catch {
      map = null;
    }
    sourceMaps.set(fileUrl, map);
  }
  return map;
}

/**
 * `stack` with each position in the minified bundle, entry or chunk, replaced by its TypeScript source and
 * line. This does on the rare error what `--enable-source-maps` does on every cold start (parse the maps
 * before the first request), so the functions start without it and still log readable stack traces.
 */
export function sourceMappedStack(stack: string): string {
  if (stack.length > maxMappedLength) return stack;
  const bundleFiles = new Set(
    Array.from(stack.matchAll(framePosition), (frame) => frame[1] as string).filter(
      (url) => url.startsWith(bundleFolder) && url.endsWith('.mjs'),
    ),
  );
  let mapped = stack;
  for (const fileUrl of bundleFiles) {
    const map = sourceMapOf(fileUrl);
    if (map) mapped = mapStackPositions(mapped, fileUrl, map);
  }
  return mapped;
}

/** `stack` with each position in `bundleUrl` replaced by the source, line and column `map` gives for it. */
export function mapStackPositions(stack: string, bundleUrl: string, map: SourceMap): string {
  return stack.replace(framePosition, (position, url: string, line: string, column: string) => {
    if (url !== bundleUrl) return position;
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry)) return position;
    // Sources are relative to the bundle file's folder; what follows the last `../` names the file.
    const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
