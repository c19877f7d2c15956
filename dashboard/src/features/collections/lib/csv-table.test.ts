import { describe, expect, it } from 'vitest';
import { parseCsv, rectangular, serializeCsv } from './csv-table';

describe('csv table', () => {
  it('parses simple rows with the given delimiter', () => {
    expect(parseCsv('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a;b\r\nc;d\n', ';')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('handles quotes, embedded delimiters, quotes and line breaks', () => {
    expect(parseCsv('"a,1","say ""hi"""\n"two\nlines",x')).toEqual([
      ['a,1', 'say "hi"'],
      ['two\nlines', 'x'],
    ]);
  });

  it('round-trips through serializeCsv', () => {
    const rows = [
      ['Plano', 'Preço'],
      ['Básico; anual', 'R$ 10,00'],
      ['com "aspas"', ''],
    ];
    for (const delimiter of [',', ';', '|', '\t']) {
      expect(parseCsv(serializeCsv(rows, delimiter), delimiter)).toEqual(rows);
    }
    expect(serializeCsv(rows, ';')).toBe('Plano;Preço\n"Básico; anual";R$ 10,00\n"com ""aspas""";');
  });

  it('pads ragged rows', () => {
    expect(rectangular([['a'], ['b', 'c']])).toEqual([
      ['a', ''],
      ['b', 'c'],
    ]);
  });
});
