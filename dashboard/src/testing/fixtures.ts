import type { Paginated, ProjectDetail, User } from '@/lib/types';

/** A project as GET /api/projects/{id} returns it. */
export function projectFixture(id: number, overrides: Partial<ProjectDetail> = {}): ProjectDetail {
  return {
    id,
    name: 'Loja da Ana',
    slug: 'loja-da-ana',
    domain: 'loja.example.com',
    domain_token: 'vitrine-verify=uuid',
    token: 'tok',
    uuid: 'uuid',
    is_published: true,
    thumbnail: null,
    created_at: '2025-03-01T12:00:00Z',
    updated_at: '2025-03-01T12:00:00Z',
    preview_url: 'http://loja-da-ana.localhost:8080',
    meta: {},
    pages: [],
    tables: [],
    ...overrides,
  };
}

/** A Laravel-style page of `data`, as the list calls return it. */
export function pageFixture<T>(
  data: T[],
  total: number,
  page: number,
  perPage: number,
  path: string,
): Paginated<T> {
  const lastPage = perPage === -1 ? 1 : Math.max(1, Math.ceil(total / perPage));
  const first = perPage === -1 ? 1 : (page - 1) * perPage + 1;
  return {
    data,
    total,
    per_page: perPage,
    current_page: page,
    last_page: lastPage,
    from: data.length ? first : null,
    to: data.length ? first + data.length - 1 : null,
    prev_page_url: page > 1 ? `${path}?page=${page - 1}` : null,
    next_page_url: page < lastPage ? `${path}?page=${page + 1}` : null,
  };
}

/** A signed-in user (GET /api/user): a plain account outside any business unless `overrides` say otherwise. */
export function userFixture(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    name: 'Ana',
    email: 'ana@example.com',
    language: 'pt-BR',
    currency: 'BRL',
    business_id: null,
    is_admin: false,
    is_business_admin: false,
    permissions: {},
    created_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}
