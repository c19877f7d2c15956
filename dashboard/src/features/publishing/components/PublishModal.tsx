import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConfirmLabels, ConfirmActions, DoneButton } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import type { Project } from '@/lib/types';
import { codedMessage } from '@/lib/api-client';
import { usePublishProject } from '@/features/publishing/api/publish-project';
import type { PublishStep } from '@/features/publishing/types';
import { ResponseBox } from '@/components/ResponseBox';
import { useUser } from '@/lib/auth/get-user';
import { useFormat } from '@/lib/format';
import { planFor, usePlans } from '@/lib/plans';
import { siteAddress } from './address';
import { DeployProgress } from './DeployProgress';

interface Props {
  project: Pick<Project, 'id' | 'name' | 'token' | 'domain' | 'preview_url' | 'is_published'>;
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
 * Publish (spec 1 §2 modals, §4; issue 22): asks (saying what a newly published site costs a
 * month), then deploys showing the build's real steps as the server streams them (fonts, page i
 * of n, assets, going live), and ends on the server's answer: the live address, or the
 * serialized response. The project's state updates through the query cache (no reload).
 */
export function PublishModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const publish = usePublishProject();
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
        <p>{t('publishing.publishConfirm', { name: project.name, address: siteAddress(project) })}</p>
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
