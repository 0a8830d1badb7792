import { ProgressBar } from './progress-bar';

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
});
