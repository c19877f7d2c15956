import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import type { ProjectDetail } from '@/lib/types';
import { CertificateBadge } from './CertificateBadge';
import { ConfigureDomainModal } from './ConfigureDomainModal';
import { RemoveDomainModal } from './RemoveDomainModal';

/**
 * What the overview shows beside the project's domain: whether it is verified or pending (saved
 * before its records were in place: the server checks it again on its own, and says when), the
 * state of its certificate, and the Configure domain and Remove domain actions.
 */
export function DomainControls({ project }: { project: ProjectDetail }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [open, setOpen] = useState<'configure' | 'remove' | null>(null);
  const configureButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    const trigger = open === 'remove' ? removeButton : configureButton;
    setOpen(null);
    trigger.current?.focus();
  };
  // Verified means verified for this domain: a flag left from an earlier domain does not count.
  const verified = Boolean(
    project.domain && project.meta.verified && project.meta.verifiedDomain === project.domain,
  );
  const check = project.domain_check?.domain === project.domain ? project.domain_check : null;

  return (
    <div className="domain-controls" data-testid="domain-controls">
      {project.domain && (
        <div className="domain-state">
          <span
            className={`badge ${verified ? 'badge-success' : 'badge-muted'}`}
            data-testid="domain-verified"
            data-verified={verified}
            data-pending={Boolean(check)}
          >
            {verified ? t('domains.verified') : check ? t('domains.pending') : t('domains.unverified')}
          </span>
          {check?.next_check_at && (
            <span className="muted small" data-testid="domain-next-check">
              {t('domains.nextCheck', { date: fmt.dateTime(check.next_check_at) })}
            </span>
          )}
          <CertificateBadge certificate={project.certificate} />
        </div>
      )}
      <div className="button-row">
        <button
          ref={configureButton}
          type="button"
          className="button button-small"
          onClick={() => setOpen('configure')}
          aria-haspopup="dialog"
          data-testid="configure-domain"
        >
          {t('domains.configure')}
        </button>
        {project.domain && (
          <button
            ref={removeButton}
            type="button"
            className="button button-small button-danger"
            onClick={() => setOpen('remove')}
            aria-haspopup="dialog"
            data-testid="remove-domain"
          >
            {t('domains.remove')}
          </button>
        )}
      </div>
      {open === 'configure' && <ConfigureDomainModal project={project} onClose={close} />}
      {open === 'remove' && <RemoveDomainModal project={project} onClose={close} />}
    </div>
  );
}
