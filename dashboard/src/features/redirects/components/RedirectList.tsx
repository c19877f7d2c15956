import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Link, Outlet, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { DataTable, type DataColumn, type SortingState } from '@/components/DataTable';
import { Pager } from '@/components/Pager';
import { toast } from '@/components/toast';
import { errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import type { ProjectDetail } from '@/lib/types';
import { useDeleteRedirect } from '@/features/redirects/api/delete-redirect';
import { useRedirects } from '@/features/redirects/api/get-redirects';
import {
  DEFAULT_ORDER,
  PAGE_SIZES,
  REDIRECT_ORDERS,
  isRedirectOrder,
  listSearch,
  readListQuery,
  type Redirect,
  type RedirectListQuery,
  type RedirectOrder,
} from '@/features/redirects/types';
import { ButtonLink } from '@/components/ButtonLink';
import { ActionButton } from '@/components/ActionButton';
import { SearchInput, ToolbarSelect } from '@/components/Toolbar';

/** The server's order ('-created_at', 'from', …) as the table's sorting, and back. */
function orderToSorting(order: RedirectOrder): SortingState {
  return [{ id: order.replace(/^-/, ''), desc: order.startsWith('-') }];
}

function sortingToOrder(sorting: SortingState): RedirectOrder {
  const first = sorting[0];
  if (!first) return DEFAULT_ORDER;
  const order = `${first.desc ? '-' : ''}${first.id}`;
  return isRedirectOrder(order) ? order : DEFAULT_ORDER;
}

/**
 * The redirect list (route name redirects): search term, order, page size and pages, all kept in
 * the URL so a reload or a link shows the same page. The form (new, edit) opens over it.
 */
export function RedirectList({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
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

  const columns: DataColumn<Redirect>[] = [
    {
      id: 'from',
      accessorFn: (redirect) => redirect.from,
      header: () => t('redirects.from'),
      cell: ({ row }) => <code data-testid="redirect-from">{row.original.from}</code>,
    },
    {
      id: 'to',
      enableSorting: false,
      header: () => t('redirects.to'),
      cell: ({ row }) => <span data-testid="redirect-to">{row.original.to}</span>,
      meta: { className: 'break-all' },
    },
    {
      id: 'created_at',
      accessorFn: (redirect) => redirect.created_at,
      header: () => t('redirects.createdAt'),
      cell: ({ row }) => fmt.date(row.original.created_at),
      meta: { className: 'nowrap' },
    },
    {
      id: 'actions',
      enableSorting: false,
      header: () => <span className="sr-only">{t('common.actions')}</span>,
      cell: ({ row }) => (
        <div className="button-row">
          <ButtonLink
            to={`${paths.projectRedirectEdit.build({ projectId: project.id, redirectId: row.original.id })}${search}`}
            size="small"
            testId="redirect-edit"
          >
            {t('redirects.edit')}
          </ButtonLink>
          <ActionButton
            size="small"
            variant="danger-ghost"
            onClick={() => void remove(row.original)}
            disabled={deleteRedirect.isPending}
            testId="redirect-delete"
          >
            {t('common.delete')}
          </ActionButton>
        </div>
      ),
      meta: { className: 'actions-cell' },
    },
  ];

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
        <ButtonLink
          to={`${paths.projectRedirectNew.build({ projectId: project.id })}${search}`}
          variant="primary"
          testId="new-redirect"
        >
          + {t('redirects.new')}
        </ButtonLink>
      </div>
      <div className="toolbar">
        <form className="toolbar-item" role="search" onSubmit={submitSearch}>
          <SearchInput
            label={t('redirects.search')}
            value={term}
            onChange={setTerm}
            testId="redirect-search"
          />
          <button type="submit" className="button button-small" data-testid="redirect-search-submit">
            {t('redirects.searchButton')}
          </button>
        </form>
        <ToolbarSelect
          label={t('redirects.orderBy')}
          value={query.order}
          options={REDIRECT_ORDERS}
          optionLabel={(order) => t(`redirects.orders.${order}`)}
          onChange={(order) => change({ order })}
          testId="redirect-order"
        />
        <ToolbarSelect
          label={t('redirects.pageSize')}
          value={query.limit}
          options={PAGE_SIZES}
          optionLabel={(size) => (size === -1 ? t('redirects.all') : size)}
          onChange={(limit) => change({ limit })}
          testId="redirect-page-size"
        />
      </div>
      {redirects.isError && !page && <Alert testId="redirects-error">{errorMessage(redirects.error)}</Alert>}
      {!page && !redirects.isError && <PageLoader />}
      {page && (
        <>
          <DataTable
            data={page.data}
            columns={columns}
            getRowId={(redirect) => String(redirect.id)}
            sorting={orderToSorting(query.order)}
            onSortingChange={(next) => change({ order: sortingToOrder(next) })}
            testId="redirects-table"
            rowTestId="redirect-row"
            rowProps={(redirect) => ({ 'data-redirect-id': redirect.id })}
            label={t('redirects.title')}
            empty={
              <span data-testid="redirects-empty">
                {query.term ? t('redirects.noMatch') : t('redirects.empty')}
              </span>
            }
          />
          <Pager page={page} onPage={(next) => setSearchParams(listSearch({ ...query, page: next }))} />
        </>
      )}
      <Outlet />
      {confirmDialog}
    </section>
  );
}
