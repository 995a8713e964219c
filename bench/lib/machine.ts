/** The machine a run happened on, recorded with every result. */
import { cpus, freemem, loadavg, availableParallelism, release, totalmem, platform } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  totalMemBytes: number;
  freeMemBytes: number;
  loadAverage: number[];
  node: string;
  os: string;
}

export function machineInfo(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cpus: availableParallelism(),
    totalMemBytes: totalmem(),
    freeMemBytes: freemem(),
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
    node: process.version,
    os: `${platform()} ${release()}`,
  };
}

export function describeMachine(m: MachineInfo): string {
  const gib = (b: number) => `${(b / 2 ** 30).toFixed(1)} GiB`;
  return (
    `${m.cpus} × ${m.cpuModel}, ${gib(m.totalMemBytes)} RAM (${gib(m.freeMemBytes)} free at start), ` +
    `Node ${m.node}, ${m.os}, load average ${m.loadAverage.join(' / ')} at start`
  );
}
