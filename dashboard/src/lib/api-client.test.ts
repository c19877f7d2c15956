/** @vitest-environment jsdom */
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import {
  ApiError,
  apiJson,
  detailMessage,
  errorMessage,
  apiText,
  errorWithDetails,
  getRunningRequests,
  setClientToken,
  subscribeRunningRequests,
} from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends same-origin JSON and counts running requests', async () => {
    const seen: number[] = [];
    const unsubscribe = subscribeRunningRequests(() => seen.push(getRunningRequests()));
    const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ id: 1 }), { status: 201 })));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiJson('/api/projects', { method: 'POST', body: { name: 'x' } })).resolves.toEqual({
      id: 1,
    });
    unsubscribe();

    expect(seen).toEqual([1, 0]);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/projects');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"name":"x"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('leaves quiet (background) calls out of the running count', async () => {
    const seen: number[] = [];
    const unsubscribe = subscribeRunningRequests(() => seen.push(getRunningRequests()));
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 200 }))),
    );
    await expect(apiJson('/api/edges', { quiet: true })).resolves.toEqual({});
    unsubscribe();
    expect(seen).toEqual([]);
    expect(getRunningRequests()).toBe(0);
  });

  it('turns error bodies into ApiError with the server message and field', async () => {
    const body = JSON.stringify({ error: 'slug_taken', message: 'slug already in use', field: 'slug' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(body, { status: 409 }))),
    );
    const error = await apiJson('/api/projects/1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'slug_taken',
      message: 'slug already in use',
      field: 'slug',
    });
    expect(errorMessage(error)).toBe('slug já está em uso');
    expect(getRunningRequests()).toBe(0);
  });

  it('keeps a non-JSON error body as the message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('Bad gateway', { status: 502 }))),
    );
    await expect(apiJson('/api/user')).rejects.toMatchObject({ status: 502, message: 'Bad gateway' });
  });

  it('uses the text of an `{ error }` body without message as the message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(new Response(JSON.stringify({ error: 'Nome é obrigatório' }), { status: 422 })),
      ),
    );
    await expect(apiJson('/api/user', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 422,
      message: 'Nome é obrigatório',
    });
  });

  it('resolves 204 to undefined and reads text bodies', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
    );
    await expect(apiJson('/api/projects/1', { method: 'DELETE' })).resolves.toBeUndefined();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('/files/uploads/1/2/a.woff2\n', { status: 201 }))),
    );
    await expect(apiText('/api/upload', { method: 'POST', body: {} })).resolves.toBe(
      '/files/uploads/1/2/a.woff2\n',
    );
  });

  it('keeps the details of bulk failures and lists them for alerts', async () => {
    const price = { field: 'Preço' };
    const body = JSON.stringify({
      error: 'value_not_amount',
      message: 'Row 3, column price: Preço must be an amount (and 1 more problems)',
      params: { ...price, row: 3, more: 1 },
      details: [
        {
          row: 3,
          column: 'price',
          code: 'value_not_amount',
          message: 'Preço must be an amount',
          params: price,
        },
        {
          row: 4,
          column: 'sku',
          code: 'import_column_unknown',
          message: 'Unknown column "sku"',
          params: { column: 'sku' },
        },
        'junk',
      ],
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(body, { status: 422 }))),
    );
    const error = await apiJson('/api/tables/1/import').catch((e: unknown) => e);
    expect(error).toMatchObject({
      details: [
        { row: 3, column: 'price', code: 'value_not_amount', params: price },
        { row: 4, column: 'sku', code: 'import_column_unknown', params: { column: 'sku' } },
      ],
    });
    expect((error as ApiError).details).toHaveLength(2);
    expect(errorWithDetails(error)).toBe(
      [
        'Linha 3: Preço deve ser um valor. (e mais 1 problema)',
        '#3 price: Preço deve ser um valor.',
        '#4 sku: Coluna desconhecida "sku": não corresponde ao slug nem ao nome de nenhum campo.',
      ].join('\n'),
    );
  });

  it("shows an API error in the interface's language, from its code and values", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            error: 'too_long',
            message: 'name must be at most 200 characters',
            field: 'name',
            params: { max: 200 },
          }),
          { status: 422 },
        ),
      ),
    );
    const error = await apiJson('/api/pages', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).params).toEqual({ max: 200 });
    try {
      await i18n.changeLanguage('pt-BR');
      expect(errorMessage(error)).toBe('No máximo 200 caracteres');
      await i18n.changeLanguage('en');
      expect(errorMessage(error)).toBe('At most 200 characters');
    } finally {
      await i18n.changeLanguage('pt-BR');
    }
  });

  it('says where a problem is and how many follow, and translates each detail', () => {
    const error = new ApiError(
      422,
      'value_not_amount',
      'Row 3, column price: Price must be an amount (and 1 more problems)',
      undefined,
      [
        {
          row: 3,
          column: 'price',
          code: 'value_not_amount',
          message: 'Price must be an amount',
          params: { field: 'Preço' },
        },
        {
          row: 4,
          column: 'sku',
          code: 'import_column_unknown',
          message: 'Unknown column "sku"',
          params: { column: 'sku' },
        },
      ],
      { field: 'Preço', row: 3, more: 1 },
    );
    expect(errorMessage(error)).toBe('Linha 3: Preço deve ser um valor. (e mais 1 problema)');
    expect(error.details.map(detailMessage)).toEqual([
      'Preço deve ser um valor.',
      'Coluna desconhecida "sku": não corresponde ao slug nem ao nome de nenhum campo.',
    ]);
  });

  it("falls back to the server's text for an unknown code ('not_yet_known', which the server does not send)", () => {
    expect(errorMessage(new ApiError(422, 'not_yet_known', 'Something new went wrong'))).toBe(
      'Something new went wrong',
    );
    expect(errorMessage(new Error('offline'))).toBe('offline');
  });

  it('sends X-Client-Token while the client panel has a token', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    setClientToken('tok-1');
    try {
      await apiJson('/api/client/project');
      await apiJson('/api/user', { clientToken: null });
    } finally {
      setClientToken(null);
    }
    await apiJson('/api/user');
    const headers = fetchMock.mock.calls.map(
      (call) => (call as unknown as [string, RequestInit])[1].headers as Record<string, string>,
    );
    expect(headers[0]?.['X-Client-Token']).toBe('tok-1');
    expect(headers[1]?.['X-Client-Token']).toBeUndefined();
    expect(headers[2]?.['X-Client-Token']).toBeUndefined();
  });
});
