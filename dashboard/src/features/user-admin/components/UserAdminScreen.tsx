import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { toastFailure } from '@/components/admin-toasts';
import { useFormat } from '@/lib/format';
import { useUsers } from '@/features/user-admin/api/get-users';
import { useLoginWith } from '@/features/user-admin/api/login-with';

/** The administrator's users (spec 2 "Admin users screen"): id, created date, name, email and 'login as'. */
export function UserAdminScreen() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const list = useUsers();
  const loginWith = useLoginWith();

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
        <section className="card table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th>{t('userAdmin.id')}</th>
                <th>{t('userAdmin.createdAt')}</th>
                <th>{t('userAdmin.name')}</th>
                <th>{t('userAdmin.email')}</th>
                <th>{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((user) => (
                <tr key={user.id} data-testid={`user-admin-row-${user.id}`}>
                  <td data-testid="user-admin-id">{user.id}</td>
                  <td data-testid="user-admin-created">{fmt.date(user.created_at)}</td>
                  <td data-testid="user-admin-name">{user.name}</td>
                  <td data-testid="user-admin-email">{user.email}</td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      disabled={loginWith.isPending}
                      onClick={() =>
                        loginWith.mutate(user.id, { onError: (failure) => toastFailure(t, failure) })
                      }
                      data-testid="user-admin-login-as"
                    >
                      {t('userAdmin.loginAs')}
                    </button>
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
