import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfirm } from '@/components/ConfirmDialog';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { toast } from '@/components/toast';
import { codedMessage, errorMessage } from '@/lib/api-client';
import { useFormat } from '@/lib/format';
import { useActivateDeploy } from '@/features/publishing/api/activate-deploy';
import { useDeploys } from '@/features/publishing/api/get-deploys';
import type { Deploy, PublishTarget } from '@/features/publishing/types';
import { PublishModal } from './PublishModal';
import { ResponseBox } from '@/components/ResponseBox';
import { ActionButton } from '@/components/ActionButton';

interface Props {
  project: PublishTarget;
}

/**
 * The project's deploys, newest first: when, status, files, size, the error of a failed build and
 * which one is live. Any other ready deploy can be made live (rollback), after a confirmation;
 * on an unpublished project that publishes it again. A new version is published from here too.
 */
export function DeployHistory({ project }: Props) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [confirmDialog, askConfirm] = useConfirm();
  const deploys = useDeploys(project.id);
  const activate = useActivateDeploy();
  const [publishing, setPublishing] = useState(false);
  const publishButton = useRef<HTMLButtonElement>(null);
  const closePublish = () => {
    setPublishing(false);
    publishButton.current?.focus();
  };
  // An unpublished site serves nothing, whatever deploy it last pointed at.
  const liveId = project.is_published ? (deploys.data?.active_deploy_id ?? null) : null;

  const makeLive = async (deploy: Deploy) => {
    const date = fmt.dateTime(deploy.created_at);
    const confirmed = await askConfirm({
      title: t('kit.confirm.rollback', { date }),
      message: t('kit.confirm.rollbackMessage'),
      confirmLabel: t('kit.confirm.rollbackAction'),
    });
    if (!confirmed) return;
    activate.mutate(
      { projectId: project.id, deployId: deploy.id },
      { onSuccess: () => toast.success(t('publishing.history.rolledBack', { date })) },
    );
  };

  let content;
  if (deploys.isPending) {
    content = <PageLoader />;
  } else if (deploys.isError) {
    content = (
      <Alert testId="deploys-error">
        {t('publishing.history.loadFailed', { message: errorMessage(deploys.error) })}
      </Alert>
    );
  } else if (deploys.data.data.length === 0) {
    content = (
      <p className="muted" data-testid="deploys-empty">
        {t('publishing.history.empty')}
      </p>
    );
  } else {
    content = (
      <div className="card table-card">
        <table className="data-table deploys-table" data-testid="deploys-table">
          <caption className="sr-only">{t('publishing.history.caption', { name: project.name })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('publishing.history.date')}</th>
              <th scope="col">{t('publishing.history.status')}</th>
              <th scope="col">{t('publishing.history.files')}</th>
              <th scope="col">{t('publishing.history.size')}</th>
              <th scope="col">
                <span className="sr-only">{t('common.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deploys.data.data.map((deploy) => {
              const live = deploy.id === liveId;
              const date = fmt.dateTime(deploy.created_at);
              return (
                <tr
                  key={deploy.id}
                  data-testid="deploy-row"
                  data-deploy-id={deploy.id}
                  data-live={live}
                  aria-current={live ? 'true' : undefined}
                >
                  <td>
                    <time dateTime={deploy.created_at}>{date}</time>
                  </td>
                  <td>
                    <span className={`badge ${STATUS_BADGE[deploy.status]}`} data-testid="deploy-status">
                      {t(`publishing.history.statuses.${deploy.status}`)}
                    </span>{' '}
                    {live && (
                      <span className="badge badge-success" data-testid="deploy-live">
                        {t('publishing.history.live')}
                      </span>
                    )}
                    {deploy.status === 'failed' && deploy.error && (
                      <p className="deploy-error" data-testid="deploy-error">
                        {codedMessage(deploy.error_code ?? undefined, deploy.error_params, deploy.error)}
                      </p>
                    )}
                  </td>
                  <td>{deploy.files}</td>
                  <td data-testid="deploy-size">{fmt.bytes(deploy.bytes)}</td>
                  <td className="actions-cell">
                    {deploy.status === 'ready' && !live && (
                      <ActionButton
                        size="small"
                        onClick={() => void makeLive(deploy)}
                        disabled={activate.isPending}
                        aria-label={t('publishing.history.rollbackLabel', { date })}
                        testId="deploy-rollback"
                      >
                        {t('publishing.history.rollback')}
                      </ActionButton>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <section className="deploy-history" aria-labelledby="deploy-history-title" data-testid="deploy-history">
      <div className="page-header">
        <h2 id="deploy-history-title">{t('publishing.history.title')}</h2>
        <ActionButton
          variant="primary"
          ref={publishButton}
          onClick={() => setPublishing(true)}
          aria-haspopup="dialog"
          testId="deploy-new"
        >
          {project.is_published ? t('publishing.history.publishNew') : t('publishing.publishAction')}
        </ActionButton>
      </div>
      {activate.isError && (
        <ResponseBox error={activate.error} title={t('publishing.history.rollbackFailed')} />
      )}
      {content}
      {publishing && <PublishModal project={project} onClose={closePublish} />}
      {confirmDialog}
    </section>
  );
}

const STATUS_BADGE: Record<Deploy['status'], string> = {
  building: 'badge-muted',
  ready: 'badge-muted',
  failed: 'badge-danger',
};
