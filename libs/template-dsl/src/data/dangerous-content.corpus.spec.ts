import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RenderIssueType } from '@docrender/contracts';
import { checkData } from './check-data';

/** Labelled strings, by category: fixtures/dangerous-content/{attack,benign}.json. */
type Corpus = Record<string, string[]>;

const load = (name: string): Corpus => JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'dangerous-content', `${name}.json`), 'utf8')) as Corpus;
const flagged = (text: string): boolean => checkData({ value: text }).some((issue) => issue.type === RenderIssueType.DangerousContent);
const entries = (corpus: Corpus): [string, string][] => Object.entries(corpus).flatMap(([category, texts]) => texts.map((text): [string, string] => [category, text]));

describe('DangerousContent corpus (spec 7.3; issue 17: a precise check, 0 false negatives and 0 false positives)', () => {
  const attacks = entries(load('attack'));
  const benign = entries(load('benign'));

  it('the corpus has at least 100 attack strings and 300 benign strings, none twice', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(100);
    expect(benign.length).toBeGreaterThanOrEqual(300);
    const all = [...attacks, ...benign].map(([, text]) => text);
    expect(new Set(all).size).toBe(all.length);
  });

  it('every attack string is DangerousContent and no benign string is; prints the counts', () => {
    const falseNegatives = attacks.filter(([, text]) => !flagged(text));
    const falsePositives = benign.filter(([, text]) => flagged(text));
    process.stdout.write(
      `DangerousContent corpus: ${attacks.length} attack strings, ${benign.length} benign strings; ` +
        `false negatives ${falseNegatives.length}, false positives ${falsePositives.length}\n`,
    );
    expect({ falseNegatives, falsePositives }).toEqual({ falseNegatives: [], falsePositives: [] });
  });
});
