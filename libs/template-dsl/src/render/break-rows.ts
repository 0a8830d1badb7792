/**
 * The rows a page-aware table shows at a page break (carried rows and "continued" at the foot of a page, "continued"
 * and brought-forward rows at the head of the next), written once per table as data rather than after every row:
 * a printer puts them into the table only after the rows where it finds the breaks (docs/decisions/0029). The rows
 * after row i differ from those after row j only in the cells that read the running sums, so every distinct piece (a
 * row's opening tag, a cell, a sum's text) is written once, the rows' shape (their pieces, with a hole where a sum's
 * text goes between its cell's tags) once, and each row lists its shape and the texts of its holes. A 7-column
 * statement's break rows take about 55 bytes per row instead of 700 as hidden rows, and the page holds none of them
 * until they are placed.
 */

/**
 * The class of the `<template>` after a page-aware table that holds its break rows as JSON text (a template's content
 * is never rendered; the document holds no script).
 */
export const BREAK_ROWS_CLASS = 'xd';

/**
 * The break rows of one table. `s`: the distinct pieces. `h`: the distinct shapes, each the break rows of one row
 * of the table: each break row its opening tag (an index of `s`, ending with `>`) then its cells, each an index of
 * `s` or a hole, `[opening, closing]`: the indexes of `s` of the cell's opening and closing tags, the text going
 * between. `r[i]`: the rows after row i, `[shape, ...texts]`, the texts (indexes of `s`) filling the shape's
 * holes in order; no rows after the last row.
 */
export type BreakRowsData = { s: string[]; h: (number | [number, number])[][][]; r: number[][] };

/** A cell of one text: its opening tags, the text, its closing tags. */
const ONE_TEXT_CELL = /^((?:<[^>]*>)+)([^<]+)((?:<\/[^>]*>)+)$/;

/** Collects a table's break rows row by row, each piece and each shape once. */
export class BreakRowsEncoder {
  private readonly pieces = new Map<string, number>();
  private readonly shapes = new Map<string, number>();
  private readonly data: BreakRowsData = { s: [], h: [], r: [] };

  /**
   * The rows after the next row of the table: each row its opening tag then its cells (the closing tag is implied).
   * `varying`: the cells that read the running sums (different after every row): one of a single text is a hole of
   * the shape, its text listed with the row.
   */
  add(rows: string[][], varying: ReadonlySet<string>): void {
    const texts: number[] = [];
    const shape = rows.map((row) =>
      row.map((html, k): number | [number, number] => {
        const parts = k > 0 && varying.has(html) ? ONE_TEXT_CELL.exec(html) : null;
        if (parts === null) return this.piece(html);
        texts.push(this.piece(parts[2]));
        return [this.piece(parts[1]), this.piece(parts[3])];
      }),
    );
    const key = JSON.stringify(shape);
    let index = this.shapes.get(key);
    if (index === undefined) {
      index = this.data.h.length;
      this.data.h.push(shape);
      this.shapes.set(key, index);
    }
    this.data.r.push([index, ...texts]);
  }

  /**
   * The template element holding the table's break rows: JSON as HTML text (`<` and `&` written as character
   * references, which the HTML parser reads back), so the template's text is the JSON and holds no tag.
   */
  html(table: number): string {
    const json = JSON.stringify(this.data).replaceAll('&', '&amp;').replaceAll('<', '&lt;');
    return `<template class="${BREAK_ROWS_CLASS}" data-t="${table}">${json}</template>`;
  }

  private piece(piece: string): number {
    let index = this.pieces.get(piece);
    if (index === undefined) {
      index = this.data.s.length;
      this.data.s.push(piece);
      this.pieces.set(piece, index);
    }
    return index;
  }
}

/**
 * The HTML of the break rows after row `row` of a table, each row marked `data-x="<table>:<row>"`. Runs in the
 * printer's page too (passed there as source text): it uses nothing but its arguments.
 */
export function expandBreakRows(data: BreakRowsData, table: number, row: number): string {
  const listed = data.r[row];
  if (listed === undefined) return '';
  let html = '';
  let text = 1;
  for (const pieces of data.h[listed[0]]) {
    const open = data.s[pieces[0] as number];
    html += `${open.slice(0, -1)} data-x="${table}:${row}">`;
    for (let k = 1; k < pieces.length; k++) {
      const piece = pieces[k];
      html += typeof piece === 'number' ? data.s[piece] : data.s[piece[0]] + data.s[listed[text++]] + data.s[piece[1]];
    }
    html += '</tr>';
  }
  return html;
}
