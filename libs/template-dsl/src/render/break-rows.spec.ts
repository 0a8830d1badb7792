import { BreakRowsEncoder, type BreakRowsData, expandBreakRows } from './break-rows';

/** The JSON text of the template element, as the HTML parser reads it: no tag in it, `&lt;` and `&amp;` read back. */
function parsed(html: string): BreakRowsData {
  const text = /^<template class="xd" data-t="3">([^<]*)<\/template>$/.exec(html)?.[1];
  if (text === undefined) throw new Error(`not a template of plain text: ${html.slice(0, 80)}`);
  expect(text.replace(/&(lt|amp);/g, '')).not.toContain('&');
  return JSON.parse(text.replace(/&lt;/g, '<').replace(/&amp;/g, '&')) as BreakRowsData;
}

describe('issue 32 item 2: a page-aware table\'s break rows written once as data, not hidden after every row', () => {
  const carried = (sum: string): string[] => ['<tr class="xc s8">', '<td class="s4">Carried forward</td>', `<td class="s6"><nobr>${sum}</nobr></td>`];
  const continued = ['<tr class="xc s8">', '<td colspan="2">Continued &amp; more <b>on the next page</b></td>'];
  /** The cells of `rows` that read the running sums (the renderer tells which). */
  const sumCells = (...sums: string[]): Set<string> => new Set(sums.map((sum) => carried(sum)[2]));

  it('gives back the HTML of each row\'s break rows exactly, marked with the table and row, and nothing after the last row', () => {
    const encoder = new BreakRowsEncoder();
    encoder.add([carried('€1.00'), continued], sumCells('€1.00'));
    encoder.add([carried('€3.50'), continued], sumCells('€3.50'));
    encoder.add([carried('€3.50 & <b>more</b>'), continued], sumCells('€3.50 & <b>more</b>'));
    const data = parsed(encoder.html(3));
    expect(expandBreakRows(data, 3, 1)).toBe(
      '<tr class="xc s8" data-x="3:1"><td class="s4">Carried forward</td><td class="s6"><nobr>€3.50</nobr></td></tr>' +
        '<tr class="xc s8" data-x="3:1"><td colspan="2">Continued &amp; more <b>on the next page</b></td></tr>',
    );
    // a sum's cell of more than one text is a piece of its own, in a shape of its own
    expect(expandBreakRows(data, 3, 2)).toBe(
      '<tr class="xc s8" data-x="3:2"><td class="s4">Carried forward</td><td class="s6"><nobr>€3.50 & <b>more</b></nobr></td></tr>' +
        '<tr class="xc s8" data-x="3:2"><td colspan="2">Continued &amp; more <b>on the next page</b></td></tr>',
    );
    expect(data.h).toHaveLength(2);
    expect(expandBreakRows(data, 3, 3)).toBe('');
    expect(expandBreakRows(data, 3, 7)).toBe('');
  });

  it('writes every piece and every shape once: a thousand rows of one running sum take a fifth of the HTML of their rows written out', () => {
    const encoder = new BreakRowsEncoder();
    for (let row = 0; row < 1000; row++) encoder.add([carried(`€${row}.00`), continued], sumCells(`€${row}.00`));
    const data = parsed(encoder.html(3));
    // the opening tag, the label, the sum's opening and closing tags, the "continued" cell, and one text per sum; one shape
    expect(data.s).toHaveLength(5 + 1000);
    expect(data.h).toHaveLength(1);
    const written = data.r.reduce((length, _, row) => length + expandBreakRows(data, 3, row).length, 0);
    expect(encoder.html(3).length).toBeLessThan(written / 5);
  });
});
