import { formatDuration, ProgressBar } from './progress-bar';

describe('progress bar', () => {
  it('off a terminal prints the first update and a line per further tenth, the end once', () => {
    const lines: string[] = [];
    const bar = new ProgressBar((t) => lines.push(t), false, 'render', 20, 'documents');
    for (let done = 1; done <= 20; done++) bar.update(done);
    bar.finish();
    expect(lines).toHaveLength(11);
    expect(lines[lines.length - 1]).toBe(`render [${'#'.repeat(30)}] 20/20 documents\n`);
  });

  it('on a terminal redraws one line in place and never goes backwards', () => {
    const out: string[] = [];
    const bar = new ProgressBar((t) => out.push(t), true, 'render', 4, 'documents');
    bar.update(2);
    bar.update(1);
    bar.finish('(1 job)');
    expect(out[0]).toMatch(/^\rrender \[#{15}-{15}\] 2\/4 documents\u001b\[K$/);
    expect(out[1]).toContain('2/4');
    expect(out[2]).toMatch(/\r.*2\/4 documents \(1 job\)\u001b\[K\n$/);
  });

  it('issue 37 item 4: shows the time left at the rate since the first amount seen, and none once finished', () => {
    const out: string[] = [];
    let now = 1_000_000;
    const bar = new ProgressBar((t) => out.push(t), true, 'job', 100, 'documents', () => now);
    bar.update(40); // a resumed wait: 40 were done before the bar started
    expect(out[0]).not.toContain('ETA');
    now += 10_000;
    bar.update(50); // 10 documents in 10 s: 50 left, 50 s
    expect(out[1]).toMatch(/50\/100 documents ETA 50s\u001b\[K$/);
    now += 50_000;
    bar.update(60); // 20 in 60 s: 40 left, 2 minutes
    expect(out[2]).toContain('ETA 2m00s');
    bar.finish('(stopped)');
    expect(out[3]).not.toContain('ETA');
  });

  it('formats durations as seconds, minutes and seconds, or hours and minutes', () => {
    expect(formatDuration(400)).toBe('1s');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(187_000)).toBe('3m07s');
    expect(formatDuration(7_500_000)).toBe('2h05m');
  });

  it('issue 37 item 4: a note interjected on a terminal goes above the bar, which is drawn again', () => {
    const out: string[] = [];
    const bar = new ProgressBar((t) => out.push(t), true, 'render', 4, 'documents');
    bar.update(1, '(1 job)');
    bar.interject('job 42: 4 documents');
    expect(out[1]).toMatch(/^\r\u001b\[Kjob 42: 4 documents\n\rrender \[#+-+\] 1\/4 documents \(1 job\)\u001b\[K$/);
    const plain: string[] = [];
    new ProgressBar((t) => plain.push(t), false, 'render', 4, 'documents').interject('a note');
    expect(plain).toEqual(['a note\n']);
  });
});
