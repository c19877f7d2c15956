import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { DeleteBusinessBlockModal } from '@/components/DeleteBusinessBlockModal';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useBusinessBlocks } from '@/lib/business-blocks/get-business-blocks';
import type { BusinessBlock } from '@/lib/business-blocks/types';
import { useFormat } from '@/lib/format';
import { BusinessBlockFormModal } from './BusinessBlockFormModal';

/**
 * The business's own block library, for its administrators (issue 20): what every member sees
 * in the editor beside My Blocks. Blocks are added from the editor's code window; here they
 * are renamed, ordered, given keywords and a thumbnail, or deleted.
 */
export function BusinessLibraryScreen() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const list = useBusinessBlocks();
  const [editing, setEditing] = useState<BusinessBlock | null>(null);
  const [removing, setRemoving] = useState<BusinessBlock | null>(null);

  if (list.isPending) return <PageLoader />;
  if (list.isError) return <Alert testId="business-library-error">{errorMessage(list.error)}</Alert>;

  return (
    <div className="page" data-testid="business-library">
      <header className="page-header">
        <h1>{t('businessLibrary.title')}</h1>
      </header>
      <p className="muted">{t('businessLibrary.intro')}</p>
      {list.data.length === 0 ? (
        <p className="card empty muted" data-testid="business-library-empty">
          {t('businessLibrary.empty')}
        </p>
      ) : (
        <section className="card table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th>{t('businessLibrary.name')}</th>
                <th>{t('businessLibrary.keywords')}</th>
                <th>{t('businessLibrary.order')}</th>
                <th>{t('businessLibrary.updated')}</th>
                <th>{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((block) => (
                <tr key={block.id} data-testid={`business-block-row-${block.id}`}>
                  <td data-testid="business-block-row-name">{block.name}</td>
                  <td>{block.keywords}</td>
                  <td>{block.order}</td>
                  <td>{fmt.dateTime(block.updated_at)}</td>
                  <td>
                    <div className="button-row">
                      <button
                        type="button"
                        className="button"
                        onClick={() => setEditing(block)}
                        data-testid="business-block-edit"
                      >
                        {t('businessLibrary.edit')}
                      </button>
                      <button
                        type="button"
                        className="button button-danger-ghost"
                        onClick={() => setRemoving(block)}
                        data-testid="business-block-delete"
                      >
                        {t('common.delete')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {editing && <BusinessBlockFormModal block={editing} onClose={() => setEditing(null)} />}
      {removing && <DeleteBusinessBlockModal block={removing} onClose={() => setRemoving(null)} />}
    </div>
  );
}
