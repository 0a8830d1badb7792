const WIDTH = 30;

/**
 * A progress bar on stderr. On a terminal it redraws one line in place; elsewhere (a log, a pipe) it prints a line
 * whenever another tenth of the work is done, and at the end, so logs stay short. While work remains and some is done,
 * the line ends with an estimate of the time left (`ETA 1m05s`), from the rate since the first amount done was seen.
 */
export class ProgressBar {
  private done = 0;
  private lastTenth = -1;
  private finished = false;
  private lastDetail = '';
  /** When the bar first saw some work done, and how much: the rate is measured from there (a resumed wait starts mid-way). */
  private firstSeen: { at: number; done: number } | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
    private readonly label: string,
    private readonly total: number,
    private readonly unit: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sets the amount done (never moves backwards) and draws. */
  update(done: number, detail = ''): void {
    if (this.finished) return;
    this.lastDetail = detail;
    this.done = Math.min(this.total, Math.max(this.done, done));
    this.firstSeen ??= { at: this.now(), done: this.done };
    const tenth = this.total === 0 ? 10 : Math.floor((this.done / this.total) * 10);
    if (this.tty) {
      this.write(`\r${this.line(detail)}\u001b[K`);
    } else if (tenth !== this.lastTenth) {
      this.write(`${this.line(detail)}\n`);
    }
    this.lastTenth = tenth;
  }

  /** A line of its own above the bar (a note while working); on a terminal the bar is drawn again below it. */
  interject(text: string): void {
    if (this.tty && !this.finished && this.lastTenth !== -1) this.write(`\r\u001b[K${text}\n\r${this.line(this.lastDetail)}\u001b[K`);
    else this.write(`${text}\n`);
  }

  /** Draws the final state and ends the line. */
  finish(detail = ''): void {
    if (this.finished) return;
    this.finished = true;
    if (this.tty) this.write(`\r${this.line(detail)}\u001b[K\n`);
    else if (this.lastTenth !== 10 || detail !== '') this.write(`${this.line(detail)}\n`);
  }

  private line(detail: string): string {
    const ratio = this.total === 0 ? 1 : this.done / this.total;
    const filled = Math.round(ratio * WIDTH);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
    const eta = this.finished ? null : this.eta();
    return `${this.label} [${bar}] ${this.done}/${this.total} ${this.unit}${detail ? ` ${detail}` : ''}${eta === null ? '' : ` ETA ${eta}`}`;
  }

  /** The time left at the rate seen so far, or null before there is a rate or once all is done. */
  private eta(): string | null {
    if (this.firstSeen === null || this.done >= this.total) return null;
    const doneSince = this.done - this.firstSeen.done;
    const elapsed = this.now() - this.firstSeen.at;
    if (doneSince <= 0 || elapsed <= 0) return null;
    return formatDuration(((this.total - this.done) * elapsed) / doneSince);
  }
}

/** `45s`, `3m07s`, `2h05m`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
