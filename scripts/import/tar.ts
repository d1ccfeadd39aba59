/** Reads the regular files of a (decompressed) tar archive: ustar, with GNU long names and pax headers. */
export function readTar(archive: Buffer): { name: string; data: Buffer }[] {
  const files: { name: string; data: Buffer }[] = [];
  let longName: string | undefined;
  for (let offset = 0; offset + 512 <= archive.length;) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(257, 6).startsWith('ustar') ? field(345, 155) : '';
    const data = archive.subarray(offset + 512, offset + 512 + size);
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    longName = undefined;
    if (type === 'L') longName = data.toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') {
      const path = /\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
      if (path) longName = path;
    } else if (type === '0' || type === '7') files.push({ name, data });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
