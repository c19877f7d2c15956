import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/Alert';
import { Field } from '../../../components/Field';
import { Modal } from '../../../components/Modal';
import { PageLoader } from '../../../components/PageLoader';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useConfig } from '../../../lib/auth/get-config';
import { serializeResponse } from '../../../lib/serialize-response';
import type { Project } from '../../../lib/types';
import { isValidDomain } from '../../../lib/validation';
import { useVerifyDomain } from '../api/verify-domain';

interface Props {
  project: Pick<Project, 'id' | 'domain'>;
  onClose: () => void;
}

/**
 * Configure domain (spec 1 §2 modals, §4, §9): the domain is typed and checked here first
 * ('invalid domain', no submit); then the DNS records to create (an A record at the platform's
 * address or a CNAME at its target, from GET /api/config) and Verify, which asks the server to
 * check them and shows its answer as it came. Change goes back to the input. A verified domain
 * is saved by the server, and the overview refreshes.
 */
export function ConfigureDomainModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const [domain, setDomain] = useState(project.domain ?? '');
  const [touched, setTouched] = useState(false);
  const [step, setStep] = useState<'input' | 'instructions'>('input');
  const verify = useVerifyDomain();

  const normalized = domain.trim().toLowerCase();
  const valid = isValidDomain(normalized);
  // Said once something was typed; an empty input only keeps the submit disabled.
  const showError = touched && normalized.length > 0 && !valid;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    verify.reset();
    setStep('instructions');
  };

  const change = () => {
    verify.reset();
    setStep('input');
  };

  if (step === 'input') {
    const footer = (
      <div className="button-row">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="submit" form="configure-domain-form" className="button button-primary" disabled={!valid} data-testid="domain-submit">
          {t('domains.continue')}
        </button>
      </div>
    );
    return (
      <Modal title={t('domains.configureTitle')} onClose={onClose} footer={footer} testId="configure-domain-modal">
        <form id="configure-domain-form" className="form" onSubmit={submit} noValidate>
          <Field
            label={t('domains.label')}
            htmlFor="domain-input"
            hint={t('domains.hint')}
            error={showError ? t('validation.invalidDomain') : undefined}
          >
            <input
              id="domain-input"
              value={domain}
              placeholder={t('domains.placeholder')}
              autoComplete="off"
              spellCheck={false}
              autoFocus
              aria-invalid={showError}
              onChange={(event) => {
                setDomain(event.target.value);
                setTouched(true);
              }}
              data-testid="domain-input"
            />
          </Field>
        </form>
      </Modal>
    );
  }

  const verifyNow = () => verify.mutate({ projectId: project.id, domain: normalized });

  let result = null;
  if (verify.isSuccess) {
    result = (
      <Alert kind="success" testId="domain-verify-success">
        {verify.data}
      </Alert>
    );
  } else if (verify.isError) {
    // The server's reason as it wrote it; with no answer at all, what the browser said.
    const text = verify.error instanceof ApiError ? verify.error.message : serializeResponse(verify.error);
    result = (
      <div className="alert alert-error verify-failure" role="alert" data-testid="domain-verify-failure">
        <p>{t('domains.verifyFailed')}</p>
        <p className="server-text" data-testid="domain-verify-message">
          {text}
        </p>
      </div>
    );
  }

  const footer = verify.isSuccess ? (
    <button type="button" className="button button-primary" onClick={onClose} data-testid="domain-done" autoFocus>
      {t('common.close')}
    </button>
  ) : (
    <div className="button-row">
      <button type="button" className="button" onClick={change} disabled={verify.isPending} data-testid="domain-change">
        {t('domains.change')}
      </button>
      <button
        type="button"
        className="button button-primary"
        onClick={verifyNow}
        disabled={verify.isPending}
        data-testid="domain-verify"
        autoFocus
      >
        {verify.isPending ? t('domains.verifying') : t('domains.verify')}
      </button>
    </div>
  );

  return (
    <Modal title={t('domains.configureTitle')} onClose={onClose} footer={footer} testId="configure-domain-modal">
      <DnsInstructions domain={normalized} />
      {result}
    </Modal>
  );
}

/** The records to create at the DNS provider, with the platform's address and target. */
function DnsInstructions({ domain }: { domain: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  if (config.isPending) return <PageLoader />;
  if (config.isError) return <Alert>{t('domains.configFailed', { message: errorMessage(config.error) })}</Alert>;
  return (
    <div className="dns-instructions" data-testid="domain-instructions">
      <p>{t('domains.instructionsIntro', { domain })}</p>
      <ul>
        <li>
          {t('domains.aRecord')} <code data-testid="domain-public-ip">{config.data.public_ip}</code>
        </li>
        <li>
          {t('domains.cnameRecord')} <code data-testid="domain-cname-target">{config.data.cname_target}</code>
        </li>
      </ul>
      <p className="muted small" data-testid="domain-proxy-note">
        {t('domains.proxyNote')}
      </p>
    </div>
  );
}
