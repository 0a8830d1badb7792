/**
 * The rows a page-aware table shows at a page break (carried rows and "continued" at the foot of a page, "continued"
 * and brought-forward rows at the head of the next), written once per table as data rather than after every row:
 * a printer puts them into the table only after the rows where it finds the breaks (docs/decisions/0029). A break
 * after row i has its own rows (their running sums differ), but most of their cells repeat, so every distinct piece
 * (a row's opening tag, a cell) is written once and each row lists the pieces it is made of. A 7-column statement's
 * break rows take about 150 bytes per row instead of 700 as hidden rows, and the page holds none of them until
 * they are placed.
 */

/**
 * The class of the `<template>` after a page-aware table that holds its break rows as JSON text (a template's content
 * is never rendered; the document holds no script).
 */
export const BREAK_ROWS_CLASS = 'xd';

/**
 * The break rows of one table: `s` the distinct pieces; `r[i]` the rows after row i, each a list of pieces (the
 * first, the row's opening tag, ends with `>`); no rows after the last row.
 */
export type BreakRowsData = { s: string[]; r: number[][][] };

/** Collects a table's break rows row by row, each piece once. */
export class BreakRowsEncoder {
  private readonly pieces = new Map<string, number>();
  private readonly data: BreakRowsData = { s: [], r: [] };

  /** The rows after the next row of the table: each row its opening tag then its cells (the closing tag is implied). */
  add(rows: string[][]): void {
    this.data.r.push(rows.map((row) => row.map((piece) => this.piece(piece))));
  }

  /**
   * The template element holding the table's break rows: JSON as HTML text (`<` and `&` written as character
   * references, which the HTML parser reads back), so the template's text is the JSON and holds no tag.
   */
  html(table: number): string {
    const json = JSON.stringify(this.data).replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'));
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
  let html = '';
  for (const pieces of data.r[row] ?? []) {
    const open = data.s[pieces[0]];
    html += `${open.slice(0, -1)} data-x="${table}:${row}">`;
    for (let k = 1; k < pieces.length; k++) html += data.s[pieces[k]];
    html += '</tr>';
  }
  return html;
}
