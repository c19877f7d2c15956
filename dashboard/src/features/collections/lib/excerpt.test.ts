import { describe, expect, it } from 'vitest';
import { excerpt, stripTags } from './excerpt';

describe('excerpt', () => {
  it('cuts text longer than 60 characters and adds an ellipsis', () => {
    const long = 'a'.repeat(61);
    expect(excerpt(long)).toBe(`${'a'.repeat(60)}…`);
    expect(excerpt('a'.repeat(60))).toBe('a'.repeat(60));
  });

  it('strips tags of rich text', () => {
    expect(stripTags('<p>Olá <strong>mundo</strong> &amp; cia</p>')).toBe('Olá mundo & cia');
  });
});
