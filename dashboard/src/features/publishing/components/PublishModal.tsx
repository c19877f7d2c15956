import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConfirmLabels, ConfirmActions, DoneButton } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import { codedMessage } from '@/lib/api-client';
import { usePublishProject } from '@/features/publishing/api/publish-project';
import type { PublishStep, PublishTarget } from '@/features/publishing/types';
import { ResponseBox } from '@/components/ResponseBox';
import { useUser } from '@/lib/auth/get-user';
import { useFormat } from '@/lib/format';
import { planFor, usePlans } from '@/lib/plans';
import { domainStatus, type DomainStatus } from '@/lib/domain-status';
import { NextDomainCheck } from '@/components/DomainStatusNote';
import { DeployProgress } from './DeployProgress';

interface Props {
  project: PublishTarget;
  onClose: () => void;
}

const PUBLISH_ACTIONS: ConfirmLabels = {
  testId: 'publish',
  confirmKey: 'publishing.publishAction',
  retryKey: 'publishing.retry',
};

/**
 * What publishing this site costs, from the owner's plan in their currency (GET /api/plans):
 * "R$ 30,00/mês por site publicado no plano Básico". Nothing while the plans load, and nothing
 * for a site already published (publishing it again costs nothing more).
 */
function PublishCost({ published }: { published: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const user = useUser();
  const plans = usePlans();
  if (published || !user.data || !plans.data) return null;
  const plan = planFor(plans.data, user.data.plan, user.data.currency);
  if (!plan) return null;
  return (
    <p className="muted" data-testid="publish-cost">
      {t('publishing.cost', { amount: fmt.money(plan.per_site, plan.currency), plan: plan.name })}
    </p>
  );
}

/**
 * A custom domain still waiting for its DNS records: the site answers at its preview address
 * meanwhile (the publish says so), and the server checks the domain again by itself, at the
 * time shown.
 */
function PendingDomainNote({ status }: { status: DomainStatus }) {
  const { t } = useTranslation();
  if (status.kind !== 'pending') return null;
  return (
    <div className="alert alert-info" role="status" data-testid="publish-pending-domain">
      <p>{t('publishing.pendingDomain', { domain: status.domain })}</p>
      <NextDomainCheck check={status.check} testId="publish-next-check" />
    </div>
  );
}

/**
 * Publish (spec 1 §2 modals, §4; issue 22): asks (saying what a newly published site costs a
 * month), then deploys showing the build's real steps as the server streams them (fonts, page i
 * of n, assets, going live), and ends on the server's answer: the live address, or the
 * serialized response. The project's state updates through the query cache (no reload). While
 * the custom domain waits for DNS, the dialog says the preview address is where the site goes
 * live, and when the domain is checked next.
 */
export function PublishModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const publish = usePublishProject();
  const status = domainStatus(project);
  const [steps, setSteps] = useState<PublishStep[]>([]);
  const start = () => {
    setSteps([]);
    publish.mutate({
      projectId: project.id,
      token: project.token,
      onStep: (step) => setSteps((before) => [...before, step]),
    });
  };

  let body;
  if (publish.isPending) {
    body = <DeployProgress steps={steps} />;
  } else if (publish.isSuccess) {
    body = (
      <>
        <div className="alert alert-success" role="status" data-testid="publish-success">
          <p>{t('publishing.published')}</p>
          <a href={publish.data.url} target="_blank" rel="noreferrer" data-testid="publish-url">
            {publish.data.url} ↗
          </a>
        </div>
        <PendingDomainNote status={status} />
        {publish.data.warnings && publish.data.warnings.length > 0 && (
          <div className="alert alert-warning publish-warnings" role="status" data-testid="publish-warnings">
            <p>{t('publishing.warnings')}</p>
            <ul>
              {publish.data.warnings.map((w, index) => (
                <li key={index}>{codedMessage(w.code, w.params, w.message)}</li>
              ))}
            </ul>
          </div>
        )}
      </>
    );
  } else if (publish.isError) {
    body = <ResponseBox error={publish.error} title={t('publishing.publishFailed')} />;
  } else {
    body = (
      <>
        <p data-testid="publish-confirm-text">
          {status.kind === 'pending'
            ? t('publishing.publishConfirmPending', {
                name: project.name,
                address: status.live,
                domain: status.domain,
              })
            : t('publishing.publishConfirm', { name: project.name, address: status.live })}
        </p>
        {status.kind === 'pending' && <NextDomainCheck check={status.check} testId="publish-next-check" />}
        <PublishCost published={project.is_published} />
      </>
    );
  }
  let footer;
  if (publish.isSuccess) footer = <DoneButton onClose={onClose} testId="publish-done" />;
  else if (!publish.isPending) {
    footer = (
      <ConfirmActions failed={publish.isError} onClose={onClose} onConfirm={start} {...PUBLISH_ACTIONS} />
    );
  }

  return (
    <Dialog title={t('publishing.publishTitle')} onClose={onClose} footer={footer} testId="publish-modal">
      {body}
    </Dialog>
  );
}
