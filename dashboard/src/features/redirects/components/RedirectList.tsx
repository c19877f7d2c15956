import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, Outlet, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { Pager } from '@/components/Pager';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import type { ProjectDetail } from '@/lib/types';
import { useDeleteRedirect } from '@/features/redirects/api/delete-redirect';
import { useRedirects } from '@/features/redirects/api/get-redirects';
import {
  PAGE_SIZES,
  REDIRECT_ORDERS,
  isRedirectOrder,
  listSearch,
  readListQuery,
  type Redirect,
  type RedirectListQuery,
} from '@/features/redirects/types';

/**
 * The redirect list (route name redirects): search term, order, page size and pages, all kept in
 * the URL so a reload or a link shows the same page. The form (new, edit) opens over it.
 */
export function RedirectList({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const [searchParams, setSearchParams] = useSearchParams();
  const query = readListQuery(searchParams);
  const redirects = useRedirects(project.id, query);
  const deleteRedirect = useDeleteRedirect();
  const [term, setTerm] = useState(query.term);
  const search = `?${searchParams.toString()}`;

  const change = (next: Partial<RedirectListQuery>) =>
    // Anything but a page change starts again from the first page.
    setSearchParams(listSearch({ ...query, page: 1, ...next }));

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ term });
  };

  const remove = async (redirect: Redirect) => {
    const confirmed = await askConfirm({
      title: t('kit.confirm.deleteRedirect', { from: redirect.from }),
      message: t('kit.confirm.irreversible'),
      confirmLabel: t('common.delete'),
      destructive: true,
    });
    if (!confirmed) return;
    deleteRedirect.mutate(
      { id: redirect.id, projectId: project.id },
      {
        onSuccess: () => toast.success(t('redirects.deleted')),
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };

  const page = redirects.data;
  return (
    <section className="page" data-testid="redirects-page">
      <nav className="breadcrumbs">
        <Link to={paths.home.build()}>{t('projects.title')}</Link> /{' '}
        <Link to={paths.project.build({ projectId: project.id })}>{project.name}</Link> /{' '}
        <span>{t('redirects.title')}</span>
      </nav>
      <div className="page-header">
        <h1>{t('redirects.title')}</h1>
        <Link
          to={`${paths.projectRedirectNew.build({ projectId: project.id })}${search}`}
          className="button button-primary"
          data-testid="new-redirect"
        >
          + {t('redirects.new')}
        </Link>
      </div>
      <div className="toolbar">
        <form className="toolbar-item" role="search" onSubmit={submitSearch}>
          <input
            type="search"
            className="toolbar-search"
            placeholder={t('redirects.search')}
            aria-label={t('redirects.search')}
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            data-testid="redirect-search"
          />
          <button type="submit" className="button button-small" data-testid="redirect-search-submit">
            {t('redirects.searchButton')}
          </button>
        </form>
        <label className="toolbar-item">
          <span>{t('redirects.orderBy')}</span>
          <select
            value={query.order}
            onChange={(event) => isRedirectOrder(event.target.value) && change({ order: event.target.value })}
            data-testid="redirect-order"
          >
            {REDIRECT_ORDERS.map((order) => (
              <option key={order} value={order}>
                {t(`redirects.orders.${order}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-item">
          <span>{t('redirects.pageSize')}</span>
          <select
            value={query.limit}
            onChange={(event) => change({ limit: Number(event.target.value) })}
            data-testid="redirect-page-size"
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size === -1 ? t('redirects.all') : size}
              </option>
            ))}
          </select>
        </label>
      </div>
      {redirects.isError && !page && <Alert testId="redirects-error">{errorMessage(redirects.error)}</Alert>}
      {!page && !redirects.isError && <PageLoader />}
      {page && (
        <>
          <div className="card table-card">
            <table className="data-table" data-testid="redirects-table" data-total={page.total}>
              <thead>
                <tr>
                  <th>{t('redirects.from')}</th>
                  <th>{t('redirects.to')}</th>
                  <th>{t('redirects.createdAt')}</th>
                  <th className="actions-cell">
                    <span className="sr-only">{t('common.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.length === 0 && (
                  <tr>
                    <td colSpan={4} className="empty muted" data-testid="redirects-empty">
                      {query.term ? t('redirects.noMatch') : t('redirects.empty')}
                    </td>
                  </tr>
                )}
                {page.data.map((redirect) => (
                  <tr key={redirect.id} data-testid="redirect-row" data-redirect-id={redirect.id}>
                    <td>
                      <code data-testid="redirect-from">{redirect.from}</code>
                    </td>
                    <td className="break-all" data-testid="redirect-to">
                      {redirect.to}
                    </td>
                    <td className="nowrap">{formatDate(redirect.created_at)}</td>
                    <td className="actions-cell">
                      <div className="button-row">
                        <Link
                          to={`${paths.projectRedirectEdit.build({ projectId: project.id, redirectId: redirect.id })}${search}`}
                          className="button button-small"
                          data-testid="redirect-edit"
                        >
                          {t('redirects.edit')}
                        </Link>
                        <button
                          type="button"
                          className="button button-small button-danger-ghost"
                          onClick={() => void remove(redirect)}
                          disabled={deleteRedirect.isPending}
                          data-testid="redirect-delete"
                        >
                          {t('common.delete')}
                        </button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} onPage={(next) => setSearchParams(listSearch({ ...query, page: next }))} />
        </>
      )}
      <Outlet />
      {confirmDialog}
    </section>
  );
}
