/**
 * The client admin panel (/admin?token=…): public, no login. The project token from the link
 * is kept in sessionStorage and sent as X-Client-Token on every call while the panel is open.
 * It shows only the token's project: its collections, records, import and export.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useOutletContext, useSearchParams } from 'react-router';
import { paths } from '@/app/paths';
import { GlobalSpinner } from '@/components/GlobalSpinner';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { PageLoader } from '@/components/PageLoader';
import { Toaster } from '@/components/toast';
import { ApiError, errorMessage, setClientToken } from '@/lib/api-client';
import { readSession, storageKeys, writeSession } from '@/lib/storage';
import { useClientProject } from '@/features/collections/api/get-client-project';
import { clientScope, type RecordScope } from '@/features/collections/components/record-scope';
import { RecordForm } from '@/features/collections/components/RecordForm';
import { RecordsList } from '@/features/collections/components/RecordsList';
import { useNumberParam } from '@/features/collections/components/use-project-route';

interface ClientContext {
  scope: RecordScope;
}

function InvalidLink() {
  const { t } = useTranslation();
  return (
    <div className="card notice" data-testid="client-invalid-link">
      <h1>{t('client.invalidTitle')}</h1>
      <p className="muted">{t('client.invalidBody')}</p>
    </div>
  );
}

/** The token of the link, else the one this tab remembered. */
function useToken(): string | null {
  const [searchParams] = useSearchParams();
  const fromLink = searchParams.get('token');
  const [token] = useState(() => fromLink || readSession(storageKeys.clientToken));
  return fromLink || token;
}

function Panel({ token }: { token: string }) {
  const { t } = useTranslation();
  const client = useClientProject(token);
  if (client.isPending) return <PageLoader />;
  if (client.isError) {
    if (
      client.error instanceof ApiError &&
      (client.error.status === 404 || client.error.status === 401 || client.error.status === 403)
    )
      return <InvalidLink />;
    return (
      <div className="card notice" data-testid="client-error">
        <p>{errorMessage(client.error)}</p>
      </div>
    );
  }
  const context: ClientContext = { scope: clientScope(client.data.project, client.data.tables) };
  return (
    <>
      <header className="app-header client-header">
        <Link to={paths.clientAdmin.build()} className="brand" data-testid="client-project-name">
          {client.data.project.name}
        </Link>
        <nav className="app-nav">
          <span className="muted">{t('client.title')}</span>
          <LanguageSwitch />
        </nav>
      </header>
      <main className="app-main">
        <Outlet context={context} />
      </main>
    </>
  );
}

/** Frame of every /admin route: reads and keeps the token, checks it, then shows the panel. */
export function ClientAdminLayout() {
  const token = useToken();
  // Set during render as well: the children's queries start in their own effects, which run
  // before this component's.
  setClientToken(token);
  useEffect(() => {
    if (token) writeSession(storageKeys.clientToken, token);
    setClientToken(token);
    return () => setClientToken(null);
  }, [token]);
  return (
    <div className="app client-app">
      <GlobalSpinner />
      {token ? (
        <Panel token={token} />
      ) : (
        <main className="app-main">
          <InvalidLink />
        </main>
      )}
      <Toaster />
    </div>
  );
}

function useClientScope(): RecordScope {
  return useOutletContext<ClientContext>().scope;
}

/** "/admin": the project's collections. */
export function ClientHomeRoute() {
  const { t } = useTranslation();
  const scope = useClientScope();
  return (
    <section className="page" data-testid="client-home">
      <h1>{t('client.collections')}</h1>
      {scope.tables.length === 0 ? (
        <p className="card empty muted">{t('client.empty')}</p>
      ) : (
        <ul className="card client-tables">
          {scope.tables.map((table) => (
            <li key={table.id}>
              <Link to={scope.listLink(table.id)} data-testid="client-table-link" data-table-id={table.id}>
                {table.name}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Only the token's own collections open; any other id goes back to the panel's home. */
function useOwnTableId(scope: RecordScope): number | null {
  const tableId = useNumberParam('tableId');
  return scope.tables.some((table) => table.id === tableId) ? tableId : null;
}

/** "/admin/table/{table_id}". */
export function ClientRecordsRoute() {
  const scope = useClientScope();
  const tableId = useOwnTableId(scope);
  if (tableId === null) return <Navigate to={paths.clientAdmin.build()} replace />;
  return <RecordsList key={tableId} scope={scope} tableId={tableId} />;
}

/** "/admin/table/{table_id}/new" and ".../edit/{post_id}". */
export function ClientRecordFormRoute() {
  const scope = useClientScope();
  const tableId = useOwnTableId(scope);
  const postId = useNumberParam('postId');
  if (tableId === null) return <Navigate to={paths.clientAdmin.build()} replace />;
  return (
    <RecordForm scope={scope} tableId={tableId} postId={Number.isInteger(postId) ? postId : undefined} />
  );
}
