// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/i18n';
import { chosenNames, FilePicker } from './FilePicker';

afterEach(cleanup);

describe('FilePicker', () => {
  it('shows a translated button and "no file" instead of the browser control, then the chosen name', () => {
    const onChange = vi.fn();
    render(<FilePicker id="logo" accept=".png" onChange={onChange} data-testid="logo-input" />);
    const input = screen.getByTestId<HTMLInputElement>('logo-input');
    expect(input.type).toBe('file');
    // Visually hidden, still in the page: focus, keyboard and the field's label keep working.
    expect(input.className).toBe('sr-only');
    expect(input.accept).toBe('.png');
    const button = document.querySelector('label[for="logo"]');
    expect(button?.textContent).toBe('Escolher arquivo');
    expect(button?.className).toContain('button');
    expect(screen.getByTestId('logo-chosen').textContent).toBe('Nenhum arquivo escolhido');

    const file = new File(['x'], 'marca da padaria.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [file] } });
    expect(screen.getByTestId('logo-chosen').textContent).toBe('marca da padaria.png');
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it("says the screen's own label, and marks the button disabled with the input", () => {
    render(<FilePicker id="icon" buttonLabel="Escolher ícone" disabled />);
    const button = document.querySelector('label[for="icon"]');
    expect(button?.textContent).toBe('Escolher ícone');
    expect(button?.getAttribute('aria-disabled')).toBe('true');
    expect(document.querySelector<HTMLInputElement>('#icon')?.disabled).toBe(true);
  });

  it('names every chosen file, or none', () => {
    const files = [new File([''], 'a.csv'), new File([''], 'b.csv')];
    expect(chosenNames(files as unknown as FileList)).toBe('a.csv, b.csv');
    expect(chosenNames(null)).toBeNull();
    expect(chosenNames([] as unknown as FileList)).toBeNull();
  });
});
