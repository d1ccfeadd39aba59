/**
 * Progress of a long write: a cli-progress bar on a terminal, a plain line every tenth otherwise (a
 * log or CI keeps ten lines, where a redrawn bar would leave control characters or nothing at all).
 */
import { SingleBar } from 'cli-progress';

/** Receives progress. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

/**
 * cli-progress redraws on a timer until `stop()`: a run that fails before `finish()` would never
 * exit, so the timer is let go of (unref) each time the bar sets it.
 */
class UnheldBar extends SingleBar {
  override render(): void {
    super.render();
    (this as unknown as { timer: NodeJS.Timeout | null }).timer?.unref();
  }
}

/** A bar on `stream` when it is a terminal; otherwise lines on `log` at each tenth. */
export function createProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stdout,
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Progress {
  if (stream.isTTY) {
    const bar = new UnheldBar({
      stream,
      format: `${label} [{bar}] {value}/{total}`,
      barsize: 30,
      barCompleteChar: '#',
      barIncompleteChar: '-',
      // Trimmed to the terminal's width rather than turning its line wrapping off, a setting a run
      // that fails before finish() would leave behind.
      linewrap: true,
    });
    bar.start(total, 0);
    return {
      update: (done) => bar.update(done),
      finish() {
        bar.update(total);
        bar.stop();
      },
    };
  }
  let lastTenth = -1;
  const line = (done: number) => {
    const tenth = Math.floor((total === 0 ? 1 : done / total) * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      log(`${label}: ${done}/${total}`);
    }
  };
  return { update: line, finish: () => line(total) };
}
