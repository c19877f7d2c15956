import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A react-hook-form resolver loaded on first use: the form's zod schema and zod itself (about
 * 24 kB gzip) come from a chunk of their own, so a page that shows a form before anyone uses it
 * (the sign-in page) does not wait for them. react-hook-form awaits a resolver anyway. `preload`
 * starts the download ahead (a form calls it when a field takes the focus), so a submit seldom
 * waits; a failed download is tried again at the next call.
 */
export function lazyResolver<T extends FieldValues, C, O>(
  load: () => Promise<Resolver<T, C, O>>,
): Resolver<T, C, O> & { preload: () => Promise<Resolver<T, C, O>> } {
  let loading: Promise<Resolver<T, C, O>> | undefined;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<T, C, O> = async (values, context, options) =>
    (await preload())(values, context, options);
  return Object.assign(resolver, { preload });
}
