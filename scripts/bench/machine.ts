/** The machine a run measured, for the report: figures mean little without it. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg, release, totalmem } from 'node:os';

/** What the report says of the machine. */
export interface Machine {
  readonly cpuModel: string;
  readonly cpus: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly java: string;
  readonly kernel: string;
  /** 1, 5 and 15 minute load averages when the run started: other work on the machine skews the figures. */
  readonly loadAverage: readonly number[];
}

/** Describes this machine. */
export function describeMachine(): Machine {
  const cpuInfo = readFileSync('/proc/cpuinfo', 'utf8');
  // `java -version` writes to stderr.
  const javaVersion = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const java = `${javaVersion.stderr ?? ''}${javaVersion.stdout ?? ''}`.split('\n')[0]?.trim() || 'unknown';
  return {
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuInfo)?.[1]?.trim() ?? 'unknown',
    cpus: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    java,
    kernel: release(),
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  };
}
