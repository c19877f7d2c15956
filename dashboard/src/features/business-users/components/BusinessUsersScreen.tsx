import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { useBusinessUsers } from '@/features/business-users/api/get-business-users';

/** The business's users (spec 2 "Business users list"): name, email, [Admin] tag, Edit user; New user. */
export function BusinessUsersScreen() {
  const { t } = useTranslation();
  const list = useBusinessUsers();

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <Alert testId="business-users-error">{errorMessage(list.error)}</Alert>;

  return (
    <div className="page" data-testid="business-users">
      <header className="page-header">
        <h1>{t('businessUsers.title')}</h1>
        <Link to={paths.userNew.build()} className="button button-primary" data-testid="business-user-new">
          {t('businessUsers.newUser')}
        </Link>
      </header>
      {list.data.length === 0 ? (
        <p className="card empty muted" data-testid="business-users-empty">
          {t('businessUsers.empty')}
        </p>
      ) : (
        <section className="card table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th>{t('businessUsers.name')}</th>
                <th>{t('businessUsers.email')}</th>
                <th>{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((user) => (
                <tr key={user.id} data-testid={`business-user-row-${user.id}`}>
                  <td>
                    <span data-testid="business-user-name">{user.name}</span>{' '}
                    {user.is_business_admin && (
                      <span className="badge badge-success" data-testid="business-user-admin">
                        {t('businessUsers.adminTag')}
                      </span>
                    )}
                  </td>
                  <td data-testid="business-user-email">{user.email}</td>
                  <td>
                    <Link
                      to={paths.userEdit.build({ userId: user.id })}
                      className="button"
                      data-testid="business-user-edit"
                    >
                      {t('businessUsers.editUser')}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
