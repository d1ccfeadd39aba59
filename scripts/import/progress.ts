/** Progress of a long write: a redrawn bar on a terminal, a plain line every tenth otherwise. */

/** Receives progress. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

/** A bar on `stream` when it is a terminal; otherwise lines on `log` at each tenth. */
export function createProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stdout,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Progress {
  const width = 30;
  let lastTenth = -1;
  let last = 0;
  const draw = (done: number) => {
    const share = total === 0 ? 1 : done / total;
    if (stream.isTTY) {
      const filled = Math.round(share * width);
      stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      log(`${label}: ${done}/${total}`);
    }
  };
  return {
    update(done) {
      last = done;
      draw(done);
    },
    finish() {
      if (last < total || lastTenth < 10) draw(total);
      if (stream.isTTY) stream.write('\n');
    },
  };
}
