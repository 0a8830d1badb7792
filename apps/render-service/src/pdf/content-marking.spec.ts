import { contentOperations, markUnmarkedAsArtifacts, unaccountedPainting } from './content-marking';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const text = (data: Uint8Array | null) => (data === null ? null : Buffer.from(data).toString('latin1'));

describe('issue 34 item 4 (PDF/UA-1, ISO 14289-1 7.1): marked content of page content streams', () => {
  it('reads operations past strings with parentheses and escapes, hex strings, property lists and inline images', () => {
    const stream = '/P <</MCID 3 /ActualText (a \\) (b) >> c)>> BDC BT (x\\(y) Tj <0012> Tj ET EMC BI /W 1 /H 1 ID \x00EI\xff EI q [ (a) 5 (b) ] TJ Q % comment Tj\n';
    const operations = contentOperations(bytes(stream));
    expect(operations.map((o) => o.operator)).toEqual(['BDC', 'BT', 'Tj', 'Tj', 'ET', 'EMC', 'EI', 'q', 'TJ', 'Q']);
    expect(operations[0].properties).toBe('<</MCID 3 /ActualText (a \\) (b) >> c)>> ');
  });

  it('tells operands (numbers with a sign or point, true, false, null) from operators of any length, and keeps a BMC tag', () => {
    const stream = '1 -2 +3 .5 -.25 true false null 0 0 m trueish d0 nullx falsely BDCX /Artifact BMC 1 0 0 1 0 0 cm EMC';
    const operations = contentOperations(bytes(stream));
    expect(operations.map((o) => o.operator)).toEqual(['m', 'trueish', 'd0', 'nullx', 'falsely', 'BDCX', 'BMC', 'cm', 'EMC']);
    expect(operations[0]).toEqual({ operator: 'm', start: 0, end: 37, properties: null });
    expect(operations[6].properties).toBe('/Artifact ');
  });

  it('wraps painting outside marked content in /Artifact sequences that never cross BT, ET or a tagged sequence', () => {
    const stream = 'q 0 0 5 5 re f Q /P <</MCID 0>> BDC BT (tagged) Tj ET EMC BT (band) Tj ET /X1 Do';
    expect(unaccountedPainting(bytes(stream))).toEqual({ operators: ['f', 'Tj', 'Do'], balanced: true });
    const marked = markUnmarkedAsArtifacts(bytes(stream));
    expect(text(marked)).toBe('q 0 0 5 5 re /Artifact BMC\nf Q \nEMC\n/P <</MCID 0>> BDC BT (tagged) Tj ET EMC BT /Artifact BMC\n(band) Tj \nEMC\nET /Artifact BMC\n/X1 Do\nEMC\n');
    expect(unaccountedPainting(marked ?? new Uint8Array())).toEqual({ operators: [], balanced: true });
  });

  it('leaves a stream whose painting is all marked as it is', () => {
    expect(markUnmarkedAsArtifacts(bytes('/Artifact BMC 0 0 1 1 re f EMC /Span <</MCID 1>> BDC /X1 Do EMC'))).toBeNull();
  });

  it('counts painting inside a sequence that is neither tagged nor an artifact, and unbalanced marked content', () => {
    expect(unaccountedPainting(bytes('/Span BMC (x) Tj EMC EMC'))).toEqual({ operators: ['Tj'], balanced: false });
    expect(unaccountedPainting(bytes('/P <</MCID 2>> BDC /Span BMC (x) Tj EMC'))).toEqual({ operators: [], balanced: false });
  });
});
