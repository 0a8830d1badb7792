import type { CliIo } from '../cli/cli-io';
import { ProgressBar } from './progress-bar';

/**
 * How a command reports: human-readable text on stdout, or (with --json) exactly one JSON document on stdout for
 * scripts. Notes and progress bars go to stderr, and are silent with --json or --quiet.
 */
export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
    private readonly quiet: boolean,
  ) {}

  /** A line of the human-readable result (ignored with --json). */
  line(text = ''): void {
    if (!this.json) this.io.stdout(`${text}\n`);
  }

  /** The machine-readable result (only with --json). */
  result(value: unknown): void {
    if (this.json) this.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A remark on stderr while working. */
  note(text: string): void {
    if (!this.json && !this.quiet) this.io.stderr(`${text}\n`);
  }

  /** A progress bar on stderr, or null when progress is not shown. */
  progress(label: string, total: number, unit: string): ProgressBar | null {
    if (this.json || this.quiet) return null;
    return new ProgressBar((text) => this.io.stderr(text), this.io.stderrIsTty, label, total, unit);
  }
}
