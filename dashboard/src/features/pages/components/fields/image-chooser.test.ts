import { describe, expect, it } from 'vitest';
import { imageFileName } from './ImageChooser';

describe('imageFileName', () => {
  it('shows the file a person chose, not where it was stored', () => {
    expect(imageFileName('/files/uploads/1/7/seo.png')).toBe('seo.png');
    expect(imageFileName('https://cdn.example.com/a/foto%20de%20capa.jpg?w=200')).toBe('foto de capa.jpg');
    expect(imageFileName('/files/uploads/1/7/bad%E0.png')).toBe('bad%E0.png');
  });
});
