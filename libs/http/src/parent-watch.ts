// A child that must not outlive its supervisor (`npm start` runs each service and the embedded PostgreSQL
// as its own process): when the supervisor dies, even by SIGKILL, nothing else tells its children, so each
// watches for itself. Two signs, whichever comes first: the IPC channel to the parent closes (the kernel
// closes it with the parent), or the parent pid changes (the process was re-parented), checked every
// `pollMs`. Either way `onParentGone` runs once (a service then shuts down as on SIGTERM).

export function whenParentDies(onParentGone: () => void, options: { pollMs?: number } = {}): () => void {
  const parent = process.ppid;
  let fired = false;
  const fire = () => {
    if (fired) return;
    fired = true;
    stop();
    onParentGone();
  };
  if (process.channel) {
    process.on('disconnect', fire);
    // The channel must not keep a process alive that is done otherwise.
    process.channel.unref();
  }
  const timer = setInterval(() => {
    if (process.ppid !== parent) fire();
  }, options.pollMs ?? 1000);
  timer.unref();
  function stop() {
    clearInterval(timer);
    process.off('disconnect', fire);
  }
  return stop;
}

/** Set by `npm start` (tools/start.ts) on the processes it runs: they stop when it dies. */
export const SUPERVISED_ENV = 'STORY_SUPERVISED';
