import { zodResolver } from '@hookform/resolvers/zod';
import { useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import i18n from 'i18next';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { Alert } from '@/components/Alert';
import { FormField } from '@/components/FormField';
import { DialogActions, DoneButton } from '@/components/DialogActions';
import { Dialog } from '@/components/ui/Dialog';
import { Form } from '@/components/Form';
import { PageLoader } from '@/components/PageLoader';
import { ApiError, type ApiErrorDetail, codedMessage, detailMessage, errorMessage } from '@/lib/api-client';
import { useConfig } from '@/lib/auth/get-config';
import { useFormat } from '@/lib/format';
import { serializeResponse } from '@/lib/serialize-response';
import type { Project } from '@/lib/types';
import { errorText } from '@/lib/forms';
import { cleanDomainInput, pastedDomainField } from '@/lib/validation';
import { useSaveDomain } from '@/features/domains/api/save-domain';
import { useVerifyDomain } from '@/features/domains/api/verify-domain';
import { CopyButton } from './CopyButton';

interface Props {
  project: Pick<Project, 'id' | 'domain' | 'domain_token' | 'domain_check'>;
  onClose: () => void;
}

/**
 * The domain form: what the owner pasted, cleaned to its host as the server cleans it
 * (`https://www.x.com.br/` is `www.x.com.br`), then the server's `DomainName::parse` rules.
 */
const domainFormSchema = z.object({ domain: pastedDomainField });
type DomainFormValues = z.input<typeof domainFormSchema>;

/** The TXT record's name that proves a domain (as in shared/src/domain.rs). */
export const challengeName = (domain: string) => `_vitrine-challenge.${domain}`;

/**
 * Configure domain (spec 1 §2 modals, §4, §9): the domain is typed and checked here first
 * ('invalid domain', no submit); then the DNS records to create, each with a copy button: the
 * TXT record `_vitrine-challenge.{domain}` with the project's token, which proves the domain is
 * the owner's, and an A record at the platform's address or a CNAME at its target (from GET
 * /api/config). Verify asks the server to check them and shows its answer as it came. A domain
 * not verified yet is saved by the server as pending, and the modal says so: the server checks
 * it again on its own. Change goes back to the input. The overview refreshes either way.
 */
export function ConfigureDomainModal({ project, onClose }: Props) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [step, setStep] = useState<'input' | 'instructions'>('input');
  const [normalized, setNormalized] = useState('');
  const verify = useVerifyDomain();
  const save = useSaveDomain();
  const form = useForm<DomainFormValues>({
    resolver: zodResolver(domainFormSchema),
    defaultValues: { domain: project.domain ?? '' },
  });
  // Checked as the owner types, with the same schema, synchronously so Continue never lags the
  // text; an empty input only keeps Continue disabled.
  const typed = useWatch({ control: form.control, name: 'domain' });
  const live = domainFormSchema.safeParse({ domain: typed });
  const liveError = typed.trim().length > 0 ? live.error?.issues[0]?.message : undefined;
  // What will be saved, when it is not what was typed (a pasted address, upper case, spaces).
  const cleanedNote = live.success && live.data.domain !== typed ? live.data.domain : null;
  /** The input shows the host only: a pasted address is cleaned at once, the rest on leaving it. */
  const clean = (text: string) =>
    form.setValue('domain', cleanDomainInput(text), { shouldValidate: form.formState.isSubmitted });

  // Saved as pending as soon as it is entered: the server checks it again by itself, and the
  // instructions say when.
  const submit = (values: DomainFormValues) => {
    const domain = domainFormSchema.parse(values).domain;
    verify.reset();
    save.mutate(
      { projectId: project.id, domain },
      {
        onSuccess: () => {
          setNormalized(domain);
          setStep('instructions');
        },
      },
    );
  };

  /** The dialog, the same at both steps: the domain's input, then the records to create. */
  const dialog = (footer: ReactNode, body: ReactNode) => (
    <Dialog
      title={t('domains.configureTitle')}
      onClose={onClose}
      footer={footer}
      testId="configure-domain-modal"
    >
      {body}
    </Dialog>
  );

  const change = () => {
    verify.reset();
    setStep('input');
  };

  if (step === 'input') {
    const footer = (
      <DialogActions
        onCancel={onClose}
        form="configure-domain-form"
        actionLabel={save.isPending ? t('domains.saving') : t('domains.continue')}
        actionDisabled={!live.success || save.isPending}
        actionTestId="domain-submit"
      />
    );
    return dialog(
      footer,
      <Form form={form} onValid={submit} id="configure-domain-form" className="form">
        {save.isError && <Alert testId="domain-save-error">{errorMessage(save.error)}</Alert>}
        <FormField
          label={t('domains.label')}
          id="domain-input"
          description={
            cleanedNote ? (
              <span data-testid="domain-cleaned">{t('domains.cleaned', { domain: cleanedNote })}</span>
            ) : (
              t('domains.hint')
            )
          }
          error={errorText(t, form.formState.errors.domain) ?? (liveError ? t(liveError) : undefined)}
        >
          {(control) => (
            <input
              {...control}
              placeholder={t('domains.placeholder')}
              autoComplete="off"
              spellCheck={false}
              autoFocus
              {...form.register('domain', {
                onBlur: (event: { target: HTMLInputElement }) => clean(event.target.value),
              })}
              onPaste={(event) => {
                event.preventDefault();
                clean(event.clipboardData.getData('text'));
              }}
              data-testid="domain-input"
            />
          )}
        </FormField>
      </Form>,
    );
  }

  const verifyNow = () => verify.mutate({ projectId: project.id, domain: normalized });

  let result = null;
  if (verify.isSuccess) {
    const report = verify.data;
    result = (
      <Alert kind="success" testId="domain-verify-success">
        {codedMessage(report.code ?? undefined, report.params, report.message)}
      </Alert>
    );
  } else if (verify.isError) {
    // The server's findings in the interface's language: the outcome, then one line per thing
    // found and per record to set. With no answer at all, what the browser said.
    const error = verify.error;
    const text = error instanceof ApiError ? errorMessage(error) : serializeResponse(error);
    const findings = error instanceof ApiError && i18n.exists(`errors.${error.code}`) ? error.details : [];
    result = (
      <div className="alert alert-error verify-failure" role="alert" data-testid="domain-verify-failure">
        <p>{t('domains.verifyFailed')}</p>
        <p className="server-text" data-testid="domain-verify-message">
          {text}
        </p>
        <DnsFindings findings={findings} testId="domain-verify-findings" />
      </div>
    );
  }

  const footer = verify.isSuccess ? (
    <DoneButton onClose={onClose} testId="domain-done" />
  ) : (
    <DialogActions
      onCancel={change}
      cancelLabel={t('domains.change')}
      cancelTestId="domain-change"
      cancelDisabled={verify.isPending}
      actionLabel={verify.isPending ? t('domains.verifying') : t('domains.verify')}
      onAction={verifyNow}
      actionDisabled={verify.isPending}
      actionTestId="domain-verify"
      autoFocus
    />
  );

  // The server saved it as pending (after a failed check, or earlier): it keeps checking.
  const check =
    !verify.isSuccess && project.domain_check?.domain === normalized ? project.domain_check : null;

  return dialog(
    footer,
    <>
      <DnsInstructions domain={normalized} token={project.domain_token} />
      {result}
      {check && (
        <Alert kind="info" testId="domain-pending-note">
          <p>{t('domains.pendingNote', { domain: normalized })}</p>
          {!verify.isError && check.last_result && check.checked_at && (
            <div data-testid="domain-last-check">
              <p className="small">
                {t('domains.lastCheck', { date: fmt.dateTime(check.checked_at) })}{' '}
                {codedMessage(
                  check.last_result.code ?? undefined,
                  check.last_result.params,
                  check.last_result.message,
                )}
              </p>
              <DnsFindings findings={check.last_result.details ?? []} />
            </div>
          )}
          {check.next_check_at && (
            <p className="muted small" data-testid="domain-next-check">
              {t('domains.nextCheck', { date: fmt.dateTime(check.next_check_at) })}
            </p>
          )}
        </Alert>
      )}
    </>,
  );
}

/**
 * What a check found and what to set, one line each, in the interface's language. The line
 * that the domain waits as pending is left out: the pending note below says it.
 */
function DnsFindings({ findings, testId }: { findings: ApiErrorDetail[]; testId?: string }) {
  const shown = findings.filter((finding) => finding.code !== 'dns_pending');
  if (shown.length === 0) return null;
  return (
    <ul className="dns-findings" data-testid={testId}>
      {shown.map((finding, index) => (
        <li key={index} data-code={finding.code}>
          {detailMessage(finding)}
        </li>
      ))}
    </ul>
  );
}

/** One record to create, with copy buttons for its name and value. */
function DnsRecord({ kind, name, value, id }: { kind: string; name: string; value: string; id: string }) {
  const { t } = useTranslation();
  return (
    <tr data-testid={`domain-record-${id}`}>
      <td>{kind}</td>
      <td>
        <code data-testid={`domain-${id}-name`}>{name}</code>{' '}
        <CopyButton value={name} label={t('domains.copyName', { kind })} testId={`domain-copy-${id}-name`} />
      </td>
      <td>
        <code data-testid={`domain-${id}-value`}>{value}</code>{' '}
        <CopyButton
          value={value}
          label={t('domains.copyValue', { kind })}
          testId={`domain-copy-${id}-value`}
        />
      </td>
    </tr>
  );
}

/** Where the domain may point, an A record or a CNAME: the value, with a copy button. */
function PointRecord({
  text,
  kind,
  value,
  testId,
}: {
  text: string;
  kind: 'A' | 'CNAME';
  value: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <li>
      {text} <code data-testid={testId}>{value}</code>{' '}
      <CopyButton
        value={value}
        label={t('domains.copyValue', { kind })}
        testId={`domain-copy-${kind.toLowerCase()}-value`}
      />
    </li>
  );
}

/** The records to create at the DNS provider: the TXT proof, and the A record or the CNAME. */
function DnsInstructions({ domain, token }: { domain: string; token: string }) {
  const { t } = useTranslation();
  const config = useConfig();
  if (config.isPending) return <PageLoader />;
  if (config.isError)
    return <Alert>{t('domains.configFailed', { message: errorMessage(config.error) })}</Alert>;
  return (
    <div className="dns-instructions" data-testid="domain-instructions">
      <p>{t('domains.instructionsIntro', { domain })}</p>
      <table className="dns-records">
        <thead>
          <tr>
            <th>{t('domains.recordType')}</th>
            <th>{t('domains.recordName')}</th>
            <th>{t('domains.recordValue')}</th>
          </tr>
        </thead>
        <tbody>
          <DnsRecord kind="TXT" name={challengeName(domain)} value={token} id="txt" />
        </tbody>
      </table>
      <p className="small" data-testid="domain-txt-note">
        {t('domains.txtNote')}
      </p>
      <p>{t('domains.pointIntro')}</p>
      <ul>
        <PointRecord
          text={t('domains.aRecord')}
          kind="A"
          value={config.data.public_ip}
          testId="domain-public-ip"
        />
        <PointRecord
          text={t('domains.cnameRecord')}
          kind="CNAME"
          value={config.data.cname_target}
          testId="domain-cname-target"
        />
      </ul>
      <p className="muted small" data-testid="domain-proxy-note">
        {t('domains.proxyNote')}
      </p>
    </div>
  );
}
