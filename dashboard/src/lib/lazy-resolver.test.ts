import type { Resolver } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { lazyResolver } from './lazy-resolver';

type Values = { email: string };

const ok: Resolver<Values> = (values) => Promise.resolve({ values, errors: {} });
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];

describe('lazyResolver', () => {
  it('loads the real resolver once, on first use or preload, and answers with it', async () => {
    const load = vi.fn(() => Promise.resolve(ok));
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    await resolver.preload();
    const result = await resolver({ email: 'a@b.c' }, undefined, options);
    await resolver({ email: 'd@e.f' }, undefined, options);
    expect(result).toEqual({ values: { email: 'a@b.c' }, errors: {} });
    expect(load).toHaveBeenCalledOnce();
  });

  it('tries the download again after it failed', async () => {
    const load = vi
      .fn<() => Promise<Resolver<Values>>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(ok);
    const resolver = lazyResolver(load);
    await expect(resolver({ email: 'x' }, undefined, options)).rejects.toThrow('offline');
    await expect(resolver({ email: 'x' }, undefined, options)).resolves.toEqual({
      values: { email: 'x' },
      errors: {},
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
