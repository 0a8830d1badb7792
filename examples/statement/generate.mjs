#!/usr/bin/env node
// The data of examples/statement for any number of rows: `node examples/statement/generate.mjs 10000 > data.json`.
// The same count always gives the same data (a fixed pseudo-random sequence), so a statement can be compared across
// runs; the running balance is computed here, in cents, as a bank's statement carries it.
const rows = Number(process.argv[2] ?? 120);
if (!Number.isInteger(rows) || rows < 0) {
  process.stderr.write('usage: node examples/statement/generate.mjs <rows>\n');
  process.exit(2);
}

let seed = 20261128;
/** A fixed linear congruential sequence in [0, 1): the data only has to look varied and be reproducible. */
function next() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

const payees = ['Grocery Market', 'City Utilities', 'Salary ACME Software GmbH', 'Rent Flat 4B', 'Card payment Café Nord', 'Insurance premium', 'Transfer to savings', 'Refund Online Shop', 'Mobile phone', 'Pharmacy', 'Train ticket', 'Bookshop'];
const opening = 2450.0;
let balance = Math.round(opening * 100);
const start = Date.UTC(2026, 0, 1);
const transactions = [];
for (let i = 0; i < rows; i++) {
  const payee = payees[Math.floor(next() * payees.length)];
  const incoming = payee.startsWith('Salary') || payee.startsWith('Refund');
  const cents = incoming ? Math.round(next() * 250000) + 5000 : Math.round(next() * 30000) + 150;
  balance += incoming ? cents : -cents;
  const day = new Date(start + Math.floor((i * 365) / Math.max(rows, 1)) * 86400000);
  transactions.push({
    date: day.toISOString().slice(0, 10),
    reference: `TX${String(i + 1).padStart(7, '0')}`,
    text: `${payee} ${i + 1}`,
    debit: incoming ? 0 : cents / 100,
    credit: incoming ? cents / 100 : 0,
    balance: balance / 100,
  });
}

const data = {
  bank: 'Nordbank AG',
  holder: 'Jane Example',
  iban: 'DE89 3704 0044 0532 0130 00',
  period: '2026',
  opening,
  closing: balance / 100,
  transactions,
};
process.stdout.write(`${JSON.stringify(data, null, 1)}\n`);
