import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { useBusinessUsers } from '@/features/business-users/api/get-business-users';
import type { BusinessUser } from '@/features/business-users/types';
import { ButtonLink } from '@/components/ButtonLink';

/** The business's users (spec 2 "Business users list"): name, email, [Admin] tag, Edit user; New user. */
export function BusinessUsersScreen() {
  const { t } = useTranslation();
  const list = useBusinessUsers();

  // The API answers the whole list in its own order and takes no sort parameter: no sortable headers.
  const columns: DataColumn<BusinessUser>[] = [
    {
      id: 'name',
      header: () => t('businessUsers.name'),
      cell: ({ row }) => (
        <>
          <span data-testid="business-user-name">{row.original.name}</span>{' '}
          {row.original.is_business_admin && (
            <span className="badge badge-success" data-testid="business-user-admin">
              {t('businessUsers.adminTag')}
            </span>
          )}
        </>
      ),
    },
    {
      id: 'email',
      header: () => t('businessUsers.email'),
      cell: ({ row }) => <span data-testid="business-user-email">{row.original.email}</span>,
      meta: { className: 'break-all' },
    },
    {
      id: 'actions',
      header: () => t('common.actions'),
      cell: ({ row }) => (
        <ButtonLink to={paths.userEdit.build({ userId: row.original.id })} testId="business-user-edit">
          {t('businessUsers.editUser')}
        </ButtonLink>
      ),
      meta: { className: 'actions-cell' },
    },
  ];

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <Alert testId="business-users-error">{errorMessage(list.error)}</Alert>;

  return (
    <div className="page" data-testid="business-users">
      <header className="page-header">
        <h1>{t('businessUsers.title')}</h1>
        <ButtonLink to={paths.userNew.build()} variant="primary" testId="business-user-new">
          {t('businessUsers.newUser')}
        </ButtonLink>
      </header>
      {list.data.length === 0 ? (
        <p className="card empty muted" data-testid="business-users-empty">
          {t('businessUsers.empty')}
        </p>
      ) : (
        <DataTable
          data={list.data}
          columns={columns}
          getRowId={(user) => String(user.id)}
          testId="business-users-table"
          rowTestId={(user) => `business-user-row-${user.id}`}
          label={t('businessUsers.title')}
        />
      )}
    </div>
  );
}
