/**
 * Turns the paths on the command line into input files: plain files, `.gz`, tar archives (the
 * LeanCloud console's `.tar.gz`) and directories. An XML export, plain or `.gz`, stays on disk and is
 * streamed when it is read; the JSON formats are parsed whole, so they are read as text. A LeanCloud
 * class file (`Comment.0.jsonl`) brings its sibling class files (`Counter.*.jsonl`, `Users.*.jsonl`)
 * along, so one path is enough.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { createGunzip, gunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { BadInputError, type Input, type InputFile, type StreamedFile } from './source.js';

const classFile = /^([A-Za-z_]\w*)\.\d+\.jsonl$/;
/** Enough of a file to tell XML from the rest, and a tar archive (its magic sits at 257) from XML. */
const headSize = 1024;

/** Reads every input path; `notes` tells which sibling files were added. */
export async function readInputs(paths: readonly string[]): Promise<{ files: Input[]; notes: string[] }> {
  const files: Input[] = [];
  const notes: string[] = [];
  const seen = new Set<string>();
  const addPath = async (path: string, sibling: boolean) => {
    if (seen.has(path)) return;
    seen.add(path);
    const info = await stat(path).catch(() => {
      throw new BadInputError(`${path}: no such file or directory`);
    });
    if (info.isDirectory()) {
      for (const name of (await readdir(path)).sort()) {
        if (/\.(jsonl|json|xml|gz|artrans)$/i.test(name)) await addPath(join(path, name), false);
      }
      return;
    }
    if (sibling) notes.push(`also read ${basename(path)} beside it`);
    files.push(...(await openFile(path)));
  };
  for (const path of paths) {
    await addPath(path, false);
    if (classFile.test(basename(path))) {
      for (const name of (await readdir(dirname(path))).sort()) {
        if (classFile.test(name)) await addPath(join(dirname(path), name), true);
      }
    }
  }
  return { files, notes };
}

/** Whether `start`, the beginning of a file, opens an XML document: the one format that does. */
export function looksLikeXml(start: string): boolean {
  // trimStart drops a byte order mark as well as whitespace.
  return start.trimStart().startsWith('<');
}

/** `file` as text: a streamed file is read to its end. */
export async function wholeText(file: Input): Promise<InputFile> {
  if ('text' in file) return file;
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.open()) chunks.push(chunk);
  return {
    name: file.name,
    text: Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  };
}

/** The text files inside `data`: gunzipped when compressed, unpacked when a tar archive. */
export async function decode(name: string, data: Buffer): Promise<InputFile[]> {
  if (isGzip(data)) {
    let inflated: Buffer;
    try {
      inflated = await promisify(gunzip)(data);
    } catch (error) {
      throw new BadInputError(`${name}: not a readable gzip file (${(error as Error).message})`);
    }
    return decode(unzippedName(name), inflated);
  }
  if (isTar(data)) {
    const files: InputFile[] = [];
    for (const entry of await untar(name, data)) {
      if (basename(entry.name).startsWith('.')) continue;
      files.push(...(await decode(`${name}:${basename(entry.name)}`, entry.data)));
    }
    return files;
  }
  return [{ name, text: data.toString('utf8').replace(/^\uFEFF/, '') }];
}

/** The inputs in the file at `path`: an XML export as a stream from disk, anything else decoded. */
async function openFile(path: string): Promise<Input[]> {
  const name = basename(path);
  const gzipped = isGzip(await head(createReadStream(path, { end: 1 }), 2));
  const file: StreamedFile = {
    name: gzipped ? unzippedName(name) : name,
    open: () => (gzipped ? gunzipped(path, name) : createReadStream(path)),
  };
  const start = await head(file.open(), headSize);
  if (!isTar(start) && looksLikeXml(start.toString('utf8'))) return [file];
  return decode(name, await readFile(path));
}

/** The first `size` bytes of `chunks` (fewer in a shorter file); the rest is not read. */
async function head(chunks: AsyncIterable<Uint8Array>, size: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    length += chunk.length;
    // Leaving the loop closes the stream.
    if (length >= size) break;
  }
  return Buffer.concat(parts).subarray(0, size);
}

/** The bytes of the gzip file at `path`, inflated as they are read. */
async function* gunzipped(path: string, name: string): AsyncGenerator<Uint8Array, void, undefined> {
  // pipeline closes the file when the reader stops early or either side fails; the failure itself
  // reaches the loop below through the inflated stream, so its callback has nothing to do.
  const inflated = pipeline(createReadStream(path), createGunzip(), () => undefined);
  try {
    for await (const chunk of inflated) yield chunk as Uint8Array;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // zlib's codes (Z_DATA_ERROR, Z_BUF_ERROR for a cut file) tell a damaged archive from a disk error.
    if (code?.startsWith('Z_'))
      throw new BadInputError(`${name}: not a readable gzip file (${(error as Error).message})`);
    throw error;
  }
}

/** The regular files of a tar archive: tar-stream reads ustar, GNU long names and pax headers. */
async function untar(name: string, archive: Buffer): Promise<{ name: string; data: Buffer }[]> {
  const files: { name: string; data: Buffer }[] = [];
  const entries = extract();
  entries.end(archive);
  try {
    for await (const entry of entries) {
      const chunks: Buffer[] = [];
      // Each entry is read to its end, directories and links too: the next one comes only then.
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      if (entry.header.type === 'file' || entry.header.type === 'contiguous-file') {
        files.push({ name: entry.header.name, data: Buffer.concat(chunks) });
      }
    }
  } catch (error) {
    throw new BadInputError(`${name}: not a readable tar archive (${(error as Error).message})`);
  }
  return files;
}

const isGzip = (data: Buffer) => data[0] === 0x1f && data[1] === 0x8b;

const isTar = (data: Buffer) => data.length >= 512 && data.subarray(257, 262).toString('latin1') === 'ustar';

/** The name of what a compressed file holds: `forum.xml.gz` holds `forum.xml`, `x.tgz` holds `x.tar`. */
const unzippedName = (name: string) => name.replace(/\.gz$/i, '').replace(/\.tgz$/i, '.tar');
