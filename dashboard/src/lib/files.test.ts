import { describe, expect, it } from 'vitest';
import { isJpgOrPng } from './files';

describe('isJpgOrPng', () => {
  it('accepts png, jpg and jpeg only', () => {
    expect(isJpgOrPng({ name: 'a.PNG' })).toBe(true);
    expect(isJpgOrPng({ name: 'a.jpeg' })).toBe(true);
    expect(isJpgOrPng({ name: 'photo', type: 'image/jpeg' })).toBe(true);
    expect(isJpgOrPng({ name: 'a.gif', type: 'image/gif' })).toBe(false);
    expect(isJpgOrPng({ name: 'a.png.exe' })).toBe(false);
  });
});
