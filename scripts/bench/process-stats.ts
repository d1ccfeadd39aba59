/**
 * CPU time and memory of another process, or of a process tree, read from Linux's /proc: the benchmark
 * samples the server and DynamoDB Local (or Waline's master and worker together) before and after each case,
 * so each one's CPU per request is measured apart.
 */
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/** One reading of a process. */
export interface ProcessSample {
  /** User plus system CPU time of all its threads since it started, in milliseconds. */
  readonly cpuMs: number;
  /** Resident memory now, in bytes (VmRSS). */
  readonly rssBytes: number;
  /** The most resident memory it ever had, in bytes (VmHWM). */
  readonly peakRssBytes: number;
}

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on most Linux systems). */
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/** Reads the CPU time and memory of process `pid`. */
export async function sampleProcess(pid: number): Promise<ProcessSample> {
  const [stat, status] = await Promise.all([
    readFile(`/proc/${pid}/stat`, 'utf8'),
    readFile(`/proc/${pid}/status`, 'utf8'),
  ]);
  const { utime, stime } = parseStat(stat);
  return {
    cpuMs: ((utime + stime) * 1000) / clockTicks(),
    rssBytes: statusKilobytes(status, 'VmRSS') * 1024,
    peakRssBytes: statusKilobytes(status, 'VmHWM') * 1024,
  };
}

/** The pids of the running children of `parentPid` whose command name is `command` (e.g. `java`). */
export async function findChildren(parentPid: number, command: string): Promise<number[]> {
  const processes = await readAllStats();
  return processes
    .filter((stat) => stat.ppid === parentPid && stat.command === command)
    .map((stat) => stat.pid);
}

/** `rootPid` and every running process below it (children, their children...). */
export async function findTree(rootPid: number): Promise<number[]> {
  const processes = await readAllStats();
  const tree = [rootPid];
  // Parents come before their children in `tree`, so one pass over it finds every generation.
  for (const parent of tree) {
    tree.push(...processes.filter((stat) => stat.ppid === parent).map((stat) => stat.pid));
  }
  return tree;
}

/** The readings of `pids` added up (peak RSS: the sum of each process's own peak). */
export async function sampleProcesses(pids: readonly number[]): Promise<ProcessSample> {
  const samples = await Promise.all(pids.map((pid) => sampleProcess(pid)));
  const sum = (field: keyof ProcessSample) => samples.reduce((total, sample) => total + sample[field], 0);
  return { cpuMs: sum('cpuMs'), rssBytes: sum('rssBytes'), peakRssBytes: sum('peakRssBytes') };
}

/** The stat of every running process. */
async function readAllStats(): Promise<(ReturnType<typeof parseStat> & { pid: number })[]> {
  const found = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      found.push({ pid: Number(entry), ...parseStat(await readFile(`/proc/${entry}/stat`, 'utf8')) });
    } catch {
      // The process ended between readdir and readFile.
    }
  }
  return found;
}

/** The fields we need of /proc/<pid>/stat; the command name may hold spaces and parentheses. */
function parseStat(stat: string): { command: string; ppid: number; utime: number; stime: number } {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  // After the command: state (field 3), ppid (4), ..., utime (14), stime (15).
  const fields = stat
    .slice(close + 2)
    .trim()
    .split(' ');
  return {
    command: stat.slice(open + 1, close),
    ppid: Number(fields[1]),
    utime: Number(fields[11]),
    stime: Number(fields[12]),
  };
}

function statusKilobytes(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}
