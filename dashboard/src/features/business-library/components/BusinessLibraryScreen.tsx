import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@/components/Alert';
import { DeleteBusinessBlockModal } from '@/components/DeleteBusinessBlockModal';
import { DataTable, type DataColumn } from '@/components/DataTable';
import { PageLoader } from '@/components/PageLoader';
import { errorMessage } from '@/lib/api-client';
import { useBusinessBlocks } from '@/lib/business-blocks/get-business-blocks';
import type { BusinessBlock } from '@/lib/types';
import { useFormat } from '@/lib/format';
import { BusinessBlockFormModal } from './BusinessBlockFormModal';
import { ActionButton } from '@/components/ActionButton';

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

  // GET /api/business/blocks answers the library in its stored order and takes no sort
  // parameter: no sortable headers.
  const columns: DataColumn<BusinessBlock>[] = [
    {
      id: 'name',
      header: () => t('businessLibrary.name'),
      cell: ({ row }) => <span data-testid="business-block-row-name">{row.original.name}</span>,
    },
    { id: 'keywords', header: () => t('businessLibrary.keywords'), cell: ({ row }) => row.original.keywords },
    { id: 'order', header: () => t('businessLibrary.order'), cell: ({ row }) => row.original.order },
    {
      id: 'updated_at',
      header: () => t('businessLibrary.updated'),
      cell: ({ row }) => fmt.dateTime(row.original.updated_at),
      meta: { className: 'nowrap' },
    },
    {
      id: 'actions',
      header: () => t('common.actions'),
      cell: ({ row }) => (
        <div className="button-row">
          <ActionButton onClick={() => setEditing(row.original)} testId="business-block-edit">
            {t('businessLibrary.edit')}
          </ActionButton>
          <ActionButton
            variant="danger-ghost"
            onClick={() => setRemoving(row.original)}
            testId="business-block-delete"
          >
            {t('common.delete')}
          </ActionButton>
        </div>
      ),
      meta: { className: 'actions-cell' },
    },
  ];

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
        <DataTable
          data={list.data}
          columns={columns}
          getRowId={(block) => String(block.id)}
          testId="business-library-table"
          rowTestId={(block) => `business-block-row-${block.id}`}
          label={t('businessLibrary.title')}
        />
      )}
      {editing && <BusinessBlockFormModal block={editing} onClose={() => setEditing(null)} />}
      {removing && <DeleteBusinessBlockModal block={removing} onClose={() => setRemoving(null)} />}
    </div>
  );
}
