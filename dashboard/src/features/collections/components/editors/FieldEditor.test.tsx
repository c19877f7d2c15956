// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderRoutes } from '@/testing/render-route';
import type { FormValue } from '@/features/collections/lib/record-form';
import type { Field } from '@/features/collections/types';
import { FieldEditor } from './FieldEditor';

const body: Field = {
  id: 5,
  table_id: 9,
  name: 'Corpo',
  slug: 'corpo',
  type: 'wysiwyg',
  required: '0',
  options: [],
  meta: {},
  order: 0,
};

beforeEach(() => {
  vi.spyOn(window, 'alert').mockImplementation(() => undefined);
});

describe('FieldEditor', () => {
  it("uploads a rich-text image into the record's own project and table, never a shared folder", async () => {
    const calls = mockApi({
      'POST /api/upload': () => new Response('/files/uploads/1/7/9/b.png', { status: 201 }),
    });
    const seen: FormValue[] = [];
    function Harness() {
      const [value, setValue] = useState<FormValue>('<p>Olá</p>');
      return (
        <FieldEditor
          field={body}
          value={value}
          uploadPrefix={[1, 7, 9]}
          onChange={(next) => {
            seen.push(next);
            setValue(next);
          }}
        />
      );
    }
    renderRoutes([{ path: '/', element: <Harness /> }], '/');
    // The rich-text editor is its own lazily loaded chunk: its first import in jsdom takes seconds.
    await screen.findByTestId('field-corpo', {}, { timeout: 8000 });
    const file = screen.getByRole('toolbar').querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(file, { target: { files: [new File(['x'], 'b.png', { type: 'image/png' })] } });
    await waitFor(() =>
      expect(seen[seen.length - 1]).toContain('<img src="/files/uploads/1/7/9/b.png" alt="b.png">'),
    );
    expect(calls[0]?.body).toMatchObject({ prefix: [1, 7, 9], name: 'b.png', accept: 'image' });
    // The lazy chunk's first import alone takes seconds in jsdom (4 s on an idle machine).
  }, 20_000);
});
