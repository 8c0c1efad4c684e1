// Where a target's CPU goes: the server's process group and the PostgreSQL backends serving its database,
// read from /proc (Linux) over the measured run. Used to tell whether a route's cost is in Node or in SQL
// before changing either (profile before changing). Figures are NaN where /proc is not there.
import { readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of one process, ms (NaN when it is gone or /proc is missing). */
function processCpuMs(pid: number): number {
  try {
    // Fields after the ")" of the command: state [0], ppid [1], pgrp [2], ..., utime [11], stime [12].
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return Number.NaN;
  }
}

/** CPU ms of every live process in process group `pgid` (a service started detached, with its own group). */
export function groupCpuMs(pgid: number): number {
  let total = 0;
  let seen = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return Number.NaN;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(f[2]) !== pgid) continue;
      total += (Number(f[11]) + Number(f[12])) * TICK_MS;
      seen = true;
    } catch {
      // exited between readdir and read
    }
  }
  return seen ? total : Number.NaN;
}

/** CPU ms of the client backends connected to `database` right now (their pids, summed; autovacuum left out). */
export async function backendsCpuMs(admin: postgres.Sql, database: string): Promise<{ pids: number[]; ms: number }> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database} and backend_type = 'client backend' and pid <> pg_backend_pid()`;
  const pids = rows.map((r) => r.pid);
  return { pids, ms: pids.reduce((sum, pid) => sum + (processCpuMs(pid) || 0), 0) };
}

export interface CpuSplit {
  /** CPU µs per request of the server's process group. */
  serverUs: number;
  /** CPU µs per request of the database's backends (only those alive at both ends of the run). */
  postgresUs: number;
}

/** Samples before and after `work` (the measured run) and divides by its request count. */
export async function cpuPerRequest(pgid: number | undefined, admin: postgres.Sql, database: string, work: () => Promise<number>): Promise<CpuSplit> {
  const server0 = pgid === undefined ? Number.NaN : groupCpuMs(pgid);
  const before = await backendsCpuMs(admin, database);
  const requests = await work();
  const server1 = pgid === undefined ? Number.NaN : groupCpuMs(pgid);
  const afterMs = before.pids.reduce((sum, pid) => sum + (processCpuMs(pid) || 0), 0);
  return { serverUs: ((server1 - server0) * 1000) / requests, postgresUs: ((afterMs - before.ms) * 1000) / requests };
}
