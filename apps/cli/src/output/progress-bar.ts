const WIDTH = 30;

/**
 * A progress bar on stderr. On a terminal it redraws one line in place; elsewhere (a log, a pipe) it prints a line
 * whenever another tenth of the work is done, and at the end, so logs stay short.
 */
export class ProgressBar {
  private done = 0;
  private lastTenth = -1;
  private finished = false;

  constructor(
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
    private readonly label: string,
    private readonly total: number,
    private readonly unit: string,
  ) {}

  /** Sets the amount done (never moves backwards) and draws. */
  update(done: number, detail = ''): void {
    if (this.finished) return;
    this.done = Math.min(this.total, Math.max(this.done, done));
    const tenth = this.total === 0 ? 10 : Math.floor((this.done / this.total) * 10);
    if (this.tty) {
      this.write(`\r${this.line(detail)}\u001b[K`);
    } else if (tenth !== this.lastTenth) {
      this.write(`${this.line(detail)}\n`);
    }
    this.lastTenth = tenth;
  }

  /** Draws the final state and ends the line. */
  finish(detail = ''): void {
    if (this.finished) return;
    if (this.tty) this.write(`\r${this.line(detail)}\u001b[K\n`);
    else if (this.lastTenth !== 10 || detail !== '') this.write(`${this.line(detail)}\n`);
    this.finished = true;
  }

  private line(detail: string): string {
    const ratio = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(ratio * WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    return `${this.label} [${bar}] ${this.done}/${this.total} ${this.unit}${detail ? ` ${detail}` : ''}`;
  }
}
