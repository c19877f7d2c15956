/** The csvtable field: CSV text with the field's delimiter, edited as a grid. */

export const DEFAULT_DELIMITER = ',';

/** RFC 4180-style parse: quoted cells may hold the delimiter, quotes ("") and line breaks. */
export function parseCsv(text: string, delimiter: string = DEFAULT_DELIMITER): string[][] {
  const sep = delimiter || DEFAULT_DELIMITER;
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  if (text === '') return [];
  while (i < text.length) {
    const char = text[i] ?? '';
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      cell += char;
      i += 1;
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      i += 1;
    } else if (text.startsWith(sep, i)) {
      row.push(cell);
      cell = '';
      i += sep.length;
    } else if (char === '\r' || char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += char === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += char;
      i += 1;
    }
  }
  // A trailing line break does not open an empty last row.
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function quoteCell(cell: string, sep: string): string {
  return cell.includes(sep) || /["\r\n]/.test(cell) || /^\s|\s$/.test(cell)
    ? `"${cell.replace(/"/g, '""')}"`
    : cell;
}

/** Inverse of parseCsv; rows are joined with "\n". */
export function serializeCsv(rows: string[][], delimiter: string = DEFAULT_DELIMITER): string {
  const sep = delimiter || DEFAULT_DELIMITER;
  return rows.map((row) => row.map((cell) => quoteCell(cell, sep)).join(sep)).join('\n');
}

/** Pads every row to the widest row, so the grid is rectangular. */
export function rectangular(rows: string[][]): string[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows.map((row) => [...row, ...Array.from({ length: width - row.length }, () => '')]);
}
