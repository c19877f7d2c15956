// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/i18n';
import { FontPicker } from './FontPicker';

afterEach(cleanup);

const catalogue = [
  { family: 'Roboto', category: 'sans-serif', variants: ['400'] },
  { family: 'Roboto Slab', category: 'serif', variants: ['400'] },
  { family: 'Lato', category: 'sans-serif', variants: ['400'] },
];

describe('FontPicker', () => {
  it('is a combobox: typing lists the matches, the arrow keys move, Enter picks and empties the box', async () => {
    const onPick = vi.fn();
    render(
      <FontPicker catalogue={catalogue} label="Fonte padrão" exclude={['Lato']} onPick={onPick} testId="p" />,
    );
    const input = screen.getByRole<HTMLInputElement>('combobox', { name: 'Fonte padrão' });
    input.focus();
    fireEvent.change(input, { target: { value: 'rob' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Robotosans-serif', 'Roboto Slabserif']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(onPick).toHaveBeenCalledWith(catalogue[1]));
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Fonte padrão' }).value).toBe(''),
    );
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('says so when nothing matches', async () => {
    render(<FontPicker catalogue={catalogue} label="Fonte" onPick={() => undefined} testId="p" />);
    const input = screen.getByRole('combobox', { name: 'Fonte' });
    input.focus();
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect((await screen.findByRole('listbox')).textContent).toBe('Nenhuma fonte encontrada');
  });
});
