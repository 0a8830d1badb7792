import type { RenderIssue } from '@docrender/contracts';
import { blockingIssues, isValid } from './issue-gates';

const issue = (severity: string): Pick<RenderIssue, 'severity'> => ({ severity }) as Pick<RenderIssue, 'severity'>;

describe('issue gates (spec 7.4, 4.4)', () => {
  it('7.4: Error blocks everywhere, Warning only in production, Information never', () => {
    const issues = [issue('Information'), issue('Warning'), issue('Error')];
    expect(blockingIssues(issues, 'production')).toEqual([issue('Warning'), issue('Error')]);
    expect(blockingIssues(issues, 'test')).toEqual([issue('Error')]);
  });

  it('4.4: valid means no Warning or Error issue; the test gate counts Error only', () => {
    expect(isValid([issue('Information')])).toBe(true);
    expect(isValid([issue('Warning')])).toBe(false);
    expect(isValid([issue('Warning')], 'test')).toBe(true);
    expect(isValid([issue('Error')], 'test')).toBe(false);
  });

  it('treats a severity it does not know as blocking', () => {
    expect(isValid([issue('Fatal')], 'test')).toBe(false);
  });
});
