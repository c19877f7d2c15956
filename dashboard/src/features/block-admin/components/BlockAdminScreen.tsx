import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/PageHeader';
import { useConfirm } from '@/components/ConfirmDialog';
import { Alert } from '@/components/Alert';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useExportBlock } from '@/features/block-admin/api/export-block';
import { useExportBlocks } from '@/features/block-admin/api/export-blocks';
import { useExportCategories } from '@/features/block-admin/api/export-categories';
import { useLibrary } from '@/features/block-admin/api/get-library';
import { useSearchBlocks } from '@/features/block-admin/api/search-blocks';
import { useTruncateLibrary } from '@/features/block-admin/api/truncate-library';
import { exportText } from '@/features/block-admin/lib/block-form';
import { DEFAULT_SCREENSHOT, parseScreenshotSize } from '@/features/block-admin/lib/screenshot';
import type { LibraryBlock, LibraryCategory } from '@/lib/types';
import type { ScreenshotOptions } from '@/features/block-admin/types';
import { BlockFormModal } from './BlockFormModal';
import { BlockTable } from './BlockTable';
import { CategoryFormModal } from './CategoryFormModal';
import { CategorySection } from './CategorySection';
import { ExportModal, type ExportFile } from './ExportModal';
import { ImportModal } from './ImportModal';
import { ThumbnailsButton } from './ThumbnailsButton';
import { toastFailure, toastOk, toastOutcome } from '@/components/admin-toasts';
import { ActionButton } from '@/components/ActionButton';

type Dialog =
  | { type: 'block'; block: LibraryBlock | null }
  | { type: 'category'; category: LibraryCategory | null }
  | { type: 'import'; kind: 'categories' | 'blocks' }
  | { type: 'export'; title: string; files: ExportFile[] };

/** The administrator's block library (spec 2 §2 "Admin blocks screen"). */
export function BlockAdminScreen() {
  const { t } = useTranslation();
  const [confirmDialog, askConfirm] = useConfirm();
  const library = useLibrary();
  const [searched, setSearched] = useState<string | null>(null);
  const search = useSearchBlocks(searched);
  const truncate = useTruncateLibrary();
  const exportOne = useExportBlock();
  const exportCategories = useExportCategories();
  const exportBlocks = useExportBlocks();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [term, setTerm] = useState('');
  const [sizeText, setSizeText] = useState(`${DEFAULT_SCREENSHOT.width},${DEFAULT_SCREENSHOT.height}`);
  const [trim, setTrim] = useState(DEFAULT_SCREENSHOT.trim);
  const close = () => setDialog(null);

  if (library.isPending) return <PageLoader />;
  if (library.isError) return <Alert testId="block-admin-error">{errorMessage(library.error)}</Alert>;

  const categories = [...library.data.categories].sort((a, b) => a.order - b.order || a.id - b.id);
  const size = parseScreenshotSize(sizeText);
  const screenshot: ScreenshotOptions = { ...(size ?? DEFAULT_SCREENSHOT), trim };
  const editBlock = (block: LibraryBlock) => setDialog({ type: 'block', block });
  const exportBlock = (block: LibraryBlock) =>
    exportOne.mutate(block.id, {
      onSuccess: (data) => {
        toastOk(t);
        setDialog({
          type: 'export',
          title: block.name,
          files: [{ filename: `block-${block.id}.json`, text: exportText(data) }],
        });
      },
      onError: (failure) => toastFailure(t, failure),
    });
  const exportAll = () =>
    Promise.all([exportCategories.mutateAsync(), exportBlocks.mutateAsync()]).then(
      ([allCategories, allBlocks]) => {
        toastOk(t);
        setDialog({
          type: 'export',
          title: t('blockAdmin.export.all'),
          files: [
            { filename: 'categories.json', text: exportText(allCategories) },
            { filename: 'blocks.json', text: exportText(allBlocks) },
          ],
        });
      },
      (failure: unknown) => toastFailure(t, failure),
    );
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearched(term.trim() || null);
  };
  const tableProps = { categories, screenshot, onEdit: editBlock, onExport: exportBlock };

  return (
    <div className="page" data-testid="block-admin">
      <PageHeader title={t('blockAdmin.title')}>
        <ActionButton
          variant="primary"
          disabled={categories.length === 0}
          title={categories.length === 0 ? t('blockAdmin.block.needsCategory') : undefined}
          onClick={() => setDialog({ type: 'block', block: null })}
          testId="block-new"
        >
          {t('blockAdmin.block.new')}
        </ActionButton>
        <ActionButton onClick={() => setDialog({ type: 'category', category: null })} testId="category-new">
          {t('blockAdmin.category.new')}
        </ActionButton>
        <ActionButton
          onClick={() => setDialog({ type: 'import', kind: 'categories' })}
          testId="import-categories-open"
        >
          {t('blockAdmin.import.categories')}
        </ActionButton>
        <ActionButton
          onClick={() => setDialog({ type: 'import', kind: 'blocks' })}
          testId="import-blocks-open"
        >
          {t('blockAdmin.import.blocks')}
        </ActionButton>
        <ActionButton onClick={() => void exportAll()} testId="export-all">
          {t('blockAdmin.export.all')}
        </ActionButton>
        <ThumbnailsButton />
        <ActionButton
          variant="danger"
          disabled={truncate.isPending}
          testId="truncate"
          onClick={() => {
            void askConfirm({
              title: t('kit.confirm.truncate'),
              message: t('blockAdmin.confirmTruncate'),
              confirmLabel: t('blockAdmin.truncate'),
              destructive: true,
            }).then((confirmed) => {
              if (confirmed) truncate.mutate(undefined, toastOutcome(t));
            });
          }}
        >
          {t('blockAdmin.truncate')}
        </ActionButton>
      </PageHeader>

      <div className="toolbar">
        <form onSubmit={submitSearch} className="toolbar-item" role="search">
          <input
            type="search"
            className="toolbar-search"
            value={term}
            placeholder={t('blockAdmin.search.placeholder')}
            aria-label={t('blockAdmin.search.placeholder')}
            onChange={(event) => setTerm(event.target.value)}
            data-testid="block-search"
          />
          <button type="submit" className="button" data-testid="block-search-submit">
            {t('blockAdmin.search.submit')}
          </button>
          {searched !== null && (
            <ActionButton
              onClick={() => {
                setSearched(null);
                setTerm('');
              }}
              testId="block-search-clear"
            >
              {t('blockAdmin.search.clear')}
            </ActionButton>
          )}
        </form>
        <label className="toolbar-item">
          {t('blockAdmin.screenshot.size')}{' '}
          <input
            value={sizeText}
            onChange={(event) => setSizeText(event.target.value)}
            className="narrow-input wide"
            data-testid="screenshot-size"
          />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={trim}
            onChange={(event) => setTrim(event.target.checked)}
            data-testid="screenshot-trim"
          />{' '}
          {t('blockAdmin.screenshot.trim')}
        </label>
      </div>
      {!size && <Alert testId="screenshot-size-invalid">{t('blockAdmin.screenshot.sizeInvalid')}</Alert>}

      {searched !== null ? (
        <section className="card table-card" data-testid="block-search-results">
          {search.isError && <Alert testId="block-search-error">{errorMessage(search.error)}</Alert>}
          {search.data && (
            <>
              <h2 className="section-title">{t('blockAdmin.search.results', { n: search.data.length })}</h2>
              <BlockTable
                blocks={search.data}
                {...tableProps}
                label={t('blockAdmin.search.results', { n: search.data.length })}
              />
            </>
          )}
        </section>
      ) : categories.length === 0 ? (
        <p className="card empty muted" data-testid="block-admin-empty">
          {t('blockAdmin.empty')}
        </p>
      ) : (
        categories.map((category) => (
          <CategorySection
            key={category.id}
            category={category}
            onEdit={(chosen) => setDialog({ type: 'category', category: chosen })}
            table={tableProps}
          />
        ))
      )}

      {dialog?.type === 'block' && (
        <BlockFormModal block={dialog.block} categories={categories} onClose={close} />
      )}
      {dialog?.type === 'category' && <CategoryFormModal category={dialog.category} onClose={close} />}
      {dialog?.type === 'import' && <ImportModal kind={dialog.kind} onClose={close} />}
      {dialog?.type === 'export' && <ExportModal title={dialog.title} files={dialog.files} onClose={close} />}
      {confirmDialog}
    </div>
  );
}
