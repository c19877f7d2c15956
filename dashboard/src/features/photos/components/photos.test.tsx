// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Layout } from '@/app/Layout';
import { paths } from '@/app/paths';
import { RequireAdmin } from '@/app/RequireAdmin';
import type { User } from '@/lib/types';
import { mockApi, renderRoutes } from '@/testing/render-route';
import { PhotosRoute } from '@/features/photos/routes/PhotosRoute';
import { PHOTO_POLL_MS } from '@/features/photos/api/photos';

const me = (isAdmin = true): User => ({
  id: 1,
  name: 'Ana',
  email: 'ana@example.com',
  language: 'pt-BR',
  currency: 'BRL',
  business_id: null,
  is_admin: isAdmin,
  is_business_admin: false,
  permissions: {},
  created_at: '2025-01-01T00:00:00Z',
});

const routes = [
  {
    element: <Layout />,
    children: [
      { element: <RequireAdmin />, children: [{ path: paths.erpPhotos.pattern, element: <PhotosRoute /> }] },
    ],
  },
];

describe('photo conversion (/erp/photos)', () => {
  it('keeps users who are not administrators out', async () => {
    const calls = mockApi({ 'GET /api/user': () => ({ json: me(false) }) });
    renderRoutes(routes, '/erp/photos');
    await screen.findByTestId('forbidden');
    expect(calls.filter((c) => c.url === '/erp/photos')).toHaveLength(0);
  });

  it('shows how many photos are converted and starts a pass', async () => {
    let running = false;
    const calls = mockApi({
      'GET /api/user': () => ({ json: me() }),
      'GET /erp/photos': () => ({ json: { running, done: running ? 4 : 3, total: 10, failed: 1 } }),
      'POST /erp/photos': () => {
        running = true;
        return { status: 202, json: { running: true, done: 3, total: 10, failed: 1 } };
      },
    });
    renderRoutes(routes, '/erp/photos');
    expect((await screen.findByTestId('photos-progress')).textContent).toBe('3 de 10 fotos convertidas');
    expect(screen.getByText('1 não puderam ser lidas e ficaram como estavam')).toBeTruthy();
    fireEvent.click(screen.getByTestId('photos-convert'));
    await screen.findByText('Convertendo…');
    expect(calls.filter((c) => c.method === 'POST' && c.url === '/erp/photos')).toHaveLength(1);
    // The next poll comes PHOTO_POLL_MS after the POST's answer: wait several polls, not
    // waitFor's default second, which is exactly one poll and lost the race on a loaded CI.
    await waitFor(
      () => expect(screen.getByTestId('photos-progress').textContent).toBe('4 de 10 fotos convertidas'),
      { timeout: PHOTO_POLL_MS * 5 },
    );
  });
});
