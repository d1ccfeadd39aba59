import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSource } from '../../../../scripts/import/detect.js';
import { decode, readInputs } from '../../../../scripts/import/read-input.js';
import type { Input } from '../../../../scripts/import/source.js';

const fixture = (name: string) => join(import.meta.dirname, '..', '..', '..', 'fixtures', 'import', name);

/** A tar archive built by tar-stream, as GNU tar or the LeanCloud console would write one. */
async function tar(
  entries: { name: string; text?: string; type?: 'directory' | 'symlink' }[],
): Promise<Buffer> {
  const archive = pack();
  for (const { name, text, type } of entries) {
    archive.entry(
      { name, type: type ?? 'file', ...(type === 'symlink' ? { linkname: 'x' } : {}) },
      text ?? '',
    );
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const isStreamed = (file: Input | undefined) => file !== undefined && !('text' in file);

describe('decode', () => {
  it('unpacks a LeanCloud .tar.gz into its class files when given one', async () => {
    const longDirectory = `export-${'x'.repeat(120)}`;
    const archive = gzipSync(
      await tar([
        { name: 'export', type: 'directory' },
        { name: 'export/Comment.0.jsonl', text: '#filetype:x\n{"objectId":"a"}\n' },
        // Past the 100 bytes of a ustar name: tar-stream writes a pax header for it.
        { name: `${longDirectory}/Counter.0.jsonl`, text: '' },
        { name: 'export/.DS_Store', text: 'junk' },
        { name: 'export/latest', type: 'symlink' },
      ]),
    );

    const files = await decode('backup.tar.gz', archive);

    expect(files.map((file) => file.name)).toEqual([
      'backup.tar:Comment.0.jsonl',
      'backup.tar:Counter.0.jsonl',
    ]);
    expect(files[0]?.text).toContain('"objectId":"a"');
  });

  it('names the file when a gzip file is damaged', async () => {
    const damaged = gzipSync('{"a":1}').subarray(0, 12);

    await expect(decode('backup.json.gz', damaged)).rejects.toThrow(
      /^backup\.json\.gz: not a readable gzip file/,
    );
  });

  it('names the file when a tar archive is cut short', async () => {
    const archive = await tar([{ name: 'Comment.0.jsonl', text: 'x'.repeat(2000) }]);

    await expect(decode('backup.tar', archive.subarray(0, 1024))).rejects.toThrow(
      /^backup\.tar: not a readable tar archive/,
    );
  });
});

describe('readInputs', () => {
  let dir: string;
  let disqus: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'marginalia-read-input-'));
    disqus = await readFile(fixture('disqus.xml'), 'utf8');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('streams a gzipped Disqus export and reads it as the plain one when given forum.xml.gz', async () => {
    const path = join(dir, 'forum.xml.gz');
    await writeFile(path, gzipSync(disqus));

    const gzipped = await readInputs([path]);
    const plain = await readInputs([fixture('disqus.xml')]);

    expect(gzipped.files.map((file) => file.name)).toEqual(['forum.xml']);
    expect(isStreamed(gzipped.files[0])).toBe(true);
    expect(isStreamed(plain.files[0])).toBe(true);
    const fromGzip = await readSource(gzipped.files, { sourceTimezone: 'UTC' });
    const fromPlain = await readSource(plain.files, { sourceTimezone: 'UTC' });
    expect(fromGzip.comments.map(({ ref, ...comment }) => [ref.replace('forum.xml', ''), comment])).toEqual(
      fromPlain.comments.map(({ ref, ...comment }) => [ref.replace('disqus.xml', ''), comment]),
    );
    expect(fromGzip.comments).toHaveLength(9);
  });

  it('names the file when a gzipped export is cut after its first part', async () => {
    const posts = disqus.slice(disqus.indexOf('<post'), disqus.lastIndexOf('</disqus>'));
    const big = disqus.replace('</disqus>', `${posts.repeat(40)}</disqus>`);
    const whole = gzipSync(big);
    const path = join(dir, 'cut.xml.gz');
    await writeFile(path, whole.subarray(0, whole.length - 200));

    const { files } = await readInputs([path]);

    expect(isStreamed(files[0])).toBe(true);
    await expect(readSource(files, { sourceTimezone: 'UTC' })).rejects.toThrow(
      /^cut\.xml\.gz: not a readable gzip file \(unexpected end of file\)/,
    );
  });

  it('reads a LeanCloud .tar.gz from disk as text files when given its path', async () => {
    const path = join(dir, 'leancloud.tar.gz');
    const comments = await readFile(join(fixture('leancloud'), 'Comment.0.jsonl'), 'utf8');
    await writeFile(path, gzipSync(await tar([{ name: 'export/Comment.0.jsonl', text: comments }])));

    const { files } = await readInputs([path]);
    const source = await readSource(files, { sourceTimezone: 'UTC' });

    expect(files).toEqual([{ name: 'leancloud.tar:Comment.0.jsonl', text: comments }]);
    expect(source.format).toBe('valine');
  });

  it('reads a streamed export whole when told it is of a JSON format', async () => {
    const { files } = await readInputs([fixture('disqus.xml')]);

    await expect(readSource(files, { sourceTimezone: 'UTC', from: 'waline' })).rejects.toThrow(
      'disqus.xml: not a Waline export (no "type": "waline")',
    );
  });
});
