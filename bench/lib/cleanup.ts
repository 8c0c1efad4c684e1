// Cleanup steps run once, newest first (children before the database they use, the database before
// its server), from the finally block or from SIGINT/SIGTERM, whichever comes first.
export class Cleanup {
  private readonly steps: { label: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  add(label: string, run: () => Promise<void>): void {
    this.steps.push({ label, run });
  }

  /** Idempotent: a second call (signal during the finally block) waits for the first. */
  runAll(): Promise<void> {
    this.running ??= this.runSteps();
    return this.running;
  }

  private async runSteps(): Promise<void> {
    for (const step of [...this.steps].reverse()) {
      try {
        await step.run();
      } catch (err) {
        // One failed step must not leave the others (and the database) behind.
        process.stderr.write(`[bench] cleanup "${step.label}" failed: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    }
  }
}
