/**
 * Turns the paths on the command line into text files: plain files, `.gz`, tar archives (the
 * LeanCloud console's `.tar.gz`) and directories. A LeanCloud class file (`Comment.0.jsonl`) brings
 * its sibling class files (`Counter.*.jsonl`, `Users.*.jsonl`) along, so one path is enough.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BadInputError, type InputFile } from './source.js';
import { readTar } from './tar.js';

const classFile = /^([A-Za-z_]\w*)\.\d+\.jsonl$/;

/** Reads every input path; `notes` tells which sibling files were added. */
export async function readInputs(paths: readonly string[]): Promise<{ files: InputFile[]; notes: string[] }> {
  const files: InputFile[] = [];
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
    files.push(...decode(basename(path), await readFile(path)));
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

/** The text files inside `data`: gunzipped when compressed, unpacked when a tar archive. */
export function decode(name: string, data: Buffer): InputFile[] {
  if (data[0] === 0x1f && data[1] === 0x8b) {
    let inflated: Buffer;
    try {
      inflated = gunzipSync(data);
    } catch (error) {
      throw new BadInputError(`${name}: not a readable gzip file (${(error as Error).message})`);
    }
    return decode(name.replace(/\.gz$/i, '').replace(/\.tgz$/i, '.tar'), inflated);
  }
  if (data.length >= 512 && data.subarray(257, 262).toString('latin1') === 'ustar') {
    return readTar(data)
      .filter((entry) => !basename(entry.name).startsWith('.'))
      .flatMap((entry) => decode(`${name}:${basename(entry.name)}`, entry.data));
  }
  return [{ name, text: data.toString('utf8').replace(/^\uFEFF/, '') }];
}
