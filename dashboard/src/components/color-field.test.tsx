// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import '@/lib/i18n';
import { ColorField, type PaletteColor } from './ColorField';

afterEach(cleanup);

const palette: PaletteColor[] = [
  { key: 'primary', label: 'Primária', color: '#b45309' },
  { key: 'accent', label: 'Destaque', color: '#F59E0B' },
];

function mount(initial: string, allowTheme = true) {
  const seen: string[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <>
        <label htmlFor="accent">Cor de destaque</label>
        <ColorField
          id="accent"
          name="Cor de destaque"
          value={value}
          onChange={(next) => {
            seen.push(next);
            setValue(next);
          }}
          palette={palette}
          allowTheme={allowTheme}
          testId="accent"
        />
      </>
    );
  }
  render(<Harness />);
  return { seen, last: () => seen.at(-1) };
}

describe('ColorField', () => {
  it('shows a swatch that opens the native picker, the hex as text and the palette, all named', () => {
    mount('#166534');
    const picker = screen.getByLabelText<HTMLInputElement>('Escolher Cor de destaque');
    expect(picker.type).toBe('color');
    expect(picker.value).toBe('#166534');
    expect(screen.getByLabelText<HTMLInputElement>('Cor de destaque').value).toBe('#166534');
    const chips = within(screen.getByRole('group', { name: 'Cores do tema para Cor de destaque' }));
    expect(chips.getAllByRole('button').map((chip) => chip.textContent)).toEqual([
      'Tema',
      'Primária',
      'Destaque',
    ]);
  });

  it('takes a colour from the picker, a typed hex (#rgb expanded) and a chip', () => {
    const field = mount('#166534');
    fireEvent.change(screen.getByTestId('accent-picker'), { target: { value: '#0EA5E9' } });
    expect(field.last()).toBe('#0ea5e9');
    const hex = screen.getByTestId<HTMLInputElement>('accent-hex');
    fireEvent.change(hex, { target: { value: '#abc' } });
    expect(field.last()).toBe('#aabbcc');
    fireEvent.click(screen.getByRole('button', { name: 'Destaque' }));
    expect(field.last()).toBe('#f59e0b');
    expect(screen.getByRole('button', { name: 'Destaque' }).getAttribute('aria-pressed')).toBe('true');
    expect(hex.value).toBe('#f59e0b');
  });

  it('keeps a half-typed value to itself and says what is wrong', () => {
    const field = mount('#166534');
    const hex = screen.getByTestId<HTMLInputElement>('accent-hex');
    fireEvent.change(hex, { target: { value: '#12' } });
    expect(field.seen).toEqual([]);
    expect(hex.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain('#rrggbb');
    fireEvent.blur(hex);
    expect(hex.value).toBe('#166534');
  });

  it('"Tema" empties the value: the block follows the site theme', () => {
    const field = mount('#166534');
    fireEvent.click(screen.getByRole('button', { name: 'Tema' }));
    expect(field.last()).toBe('');
    expect(screen.getByRole('button', { name: 'Tema' }).getAttribute('aria-pressed')).toBe('true');
    const hex = screen.getByTestId<HTMLInputElement>('accent-hex');
    expect(hex.value).toBe('');
    expect(hex.placeholder).toBe('Tema');
    expect(screen.getByTestId('accent-picker').parentElement?.className).toContain('is-theme');
    fireEvent.change(hex, { target: { value: '#ffffff' } });
    fireEvent.change(hex, { target: { value: '' } });
    expect(field.last()).toBe('');
  });

  it('offers no "Tema" where a colour is required', () => {
    mount('#166534', false);
    expect(screen.queryByRole('button', { name: 'Tema' })).toBeNull();
  });
});
