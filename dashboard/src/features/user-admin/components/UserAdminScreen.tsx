import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { toastFailure } from '@/components/admin-toasts';
import { useFormat } from '@/lib/format';
import { useUsers } from '@/features/user-admin/api/get-users';
import { useLoginWith } from '@/features/user-admin/api/login-with';
import type { AdminUserRow } from '@/features/user-admin/types';
import { ActionButton } from '@/components/ActionButton';

/** The administrator's users (spec 2 "Admin users screen"): id, created date, name, email and 'login as'. */
export function UserAdminScreen() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const list = useUsers();
  const loginWith = useLoginWith();

  // GET /api/users answers every user in its own order and takes no sort parameter: no sortable headers.
  const columns: DataColumn<AdminUserRow>[] = [
    {
      id: 'id',
      header: () => t('userAdmin.id'),
      cell: ({ row }) => <span data-testid="user-admin-id">{row.original.id}</span>,
    },
    {
      id: 'created_at',
      header: () => t('userAdmin.createdAt'),
      cell: ({ row }) => <span data-testid="user-admin-created">{fmt.date(row.original.created_at)}</span>,
      meta: { className: 'nowrap' },
    },
    {
      id: 'name',
      header: () => t('userAdmin.name'),
      cell: ({ row }) => <span data-testid="user-admin-name">{row.original.name}</span>,
    },
    {
      id: 'email',
      header: () => t('userAdmin.email'),
      cell: ({ row }) => <span data-testid="user-admin-email">{row.original.email}</span>,
      meta: { className: 'break-all' },
    },
    {
      id: 'actions',
      header: () => t('common.actions'),
      cell: ({ row }) => (
        <ActionButton
          disabled={loginWith.isPending}
          onClick={() =>
            loginWith.mutate(row.original.id, { onError: (failure) => toastFailure(t, failure) })
          }
          testId="user-admin-login-as"
        >
          {t('userAdmin.loginAs')}
        </ActionButton>
      ),
      meta: { className: 'actions-cell' },
    },
  ];

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <Alert testId="user-admin-error">{errorMessage(list.error)}</Alert>;

  return (
    <div className="page" data-testid="user-admin">
      <header className="page-header">
        <h1>{t('userAdmin.title')}</h1>
      </header>
      {list.data.length === 0 ? (
        <p className="card empty muted" data-testid="user-admin-empty">
          {t('userAdmin.empty')}
        </p>
      ) : (
        <DataTable
          data={list.data}
          columns={columns}
          getRowId={(user) => String(user.id)}
          testId="user-admin-table"
          rowTestId={(user) => `user-admin-row-${user.id}`}
          label={t('userAdmin.title')}
        />
      )}
    </div>
  );
}
