/**
 * Component-test harness: renders routes in a memory router with a fresh query client, against a
 * fake `fetch` that answers from a table of handlers and records every call, with the app's
 * toaster mounted (read it with `@/testing/toasts`). Used by the jsdom
 * tests (`// @vitest-environment jsdom`); the fetch wrapper, query client and i18n are the app's own.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, vi } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { Toaster } from '@/components/toast';
import { clearToasts } from './toasts';
import '@/lib/i18n';
import { storageKeys } from '@/lib/storage';

// Every test file that uses the harness: a clean DOM and fetch after.
afterEach(() => {
  cleanup();
  // Each test starts as a browser that has never signed in (see lib/auth/get-user.ts).
  window.localStorage.removeItem(storageKeys.signedIn);
  clearToasts();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

export interface ApiCall {
  method: string;
  url: string;
  body: unknown;
}

type Answer = { status?: number; json?: unknown } | Response;

/**
 * Answers a call: a JSON body with a status (200 by default), or a Response; or a promise of
 * either, to hold the answer back while a test looks at the screen in between.
 */
export type Handler = (call: ApiCall) => Answer | Promise<Answer>;

/**
 * Stubs `fetch`. Handlers are keyed by "METHOD /path" (the query string is not part of the key);
 * a call without a handler fails the test with a 599.
 */
export function mockApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const call: ApiCall = {
        method,
        url: input,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      calls.push(call);
      const handler = handlers[`${method} ${input.split('?')[0]}`];
      if (!handler)
        return new Response(JSON.stringify({ error: 'test', message: `no handler for ${method} ${input}` }), {
          status: 599,
        });
      const answer = await handler(call);
      if (answer instanceof Response) return answer;
      const status = answer.status ?? 200;
      return new Response(status === 204 ? null : JSON.stringify(answer.json ?? null), { status });
    }),
  );
  return calls;
}

/** Renders `routes` at `url` and returns the router, to read where the app navigated. */
export function renderRoutes(routes: RouteObject[], url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}
