// Cleanup steps run once, newest first (children before the database they use, the database before
// its server), from the finally block or from SIGINT/SIGTERM, whichever comes first.
export class Cleanup {
  private readonly steps: { label: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  get stopping(): boolean {
    return this.running !== undefined;
  }

  /** Throws once cleanup has begun, so the main flow stops instead of starting more work. */
  assertRunning(): void {
    if (this.stopping) throw new Error('stopped by a signal');
  }

  add(label: string, run: () => Promise<void>): void {
    if (this.stopping) {
      // Something was started while cleanup was already under way (a signal mid-step): undo it now.
      void this.runStep({ label, run });
      this.assertRunning();
    }
    this.steps.push({ label, run });
  }

  /** Idempotent: a second call (signal during the finally block) waits for the first. */
  runAll(): Promise<void> {
    this.running ??= this.runSteps();
    return this.running;
  }

  private async runSteps(): Promise<void> {
    for (const step of [...this.steps].reverse()) await this.runStep(step);
  }

  private async runStep(step: { label: string; run: () => Promise<void> }): Promise<void> {
    try {
      await step.run();
    } catch (err) {
      // One failed step must not leave the others (and the database) behind.
      process.stderr.write(`[bench] cleanup "${step.label}" failed: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}

/**
 * The entry of every bench: runs `main` with a Cleanup, runs the cleanup on SIGINT/SIGTERM or at the end,
 * and exits with main's code (130 after a signal). The explicit exit keeps a forgotten handle from leaving
 * the bench hanging after its report.
 */
export function runBench(main: (cleanup: Cleanup) => Promise<number>, say: (line: string) => void): void {
  const cleanup = new Cleanup();
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    say(`${signal}: stopping children and dropping the database`);
    void cleanup.runAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  void (async () => {
    let code = 1;
    try {
      code = await main(cleanup);
    } catch (err) {
      process.stderr.write(`\n[bench] error: ${err instanceof Error ? err.message : String(err)}\n`);
    } finally {
      await cleanup.runAll();
    }
    process.exit(signalled ? 130 : code);
  })();
}
