import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemButtons } from '@/components/ItemButtons';
import { errorMessage } from '@/lib/api-client';
import { useFetchExternal } from '@/features/pages/api/fetch-external';
import { collectionDataQueryOptions, useCollectionData } from '@/features/pages/api/get-collection-data';
import { mapListFields } from '@/features/pages/lib/binding';
import {
  apiRecords,
  asItems,
  MAX_EXTERNAL_RECORDS,
  newItem,
  readSource,
  writeSource,
} from '@/features/pages/lib/var-values';
import { applyValueChange, type FilterOperator, type ValueChange } from '@/features/pages/types';
import { useEditorContext } from '@/features/pages/components/editor-context';
import { ValueEditor, type ValueEditorProps } from './ValueEditor';
import { ActionButton } from '@/components/ActionButton';

const OPERATORS: FilterOperator[] = ['=', '!=', '>', '<', '>=', '<=', 'like'];
/** Collection lists take 1 to 100 records, like external data (spec §9). */
const MAX_RECORDS = MAX_EXTERNAL_RECORDS;

/** Manual items: add, remove, reorder, each item's fields with the sub-definitions' editors. */
function ManualItems({ id, v, onValue }: Pick<ValueEditorProps, 'id' | 'v' | 'onValue'>) {
  const { t } = useTranslation();
  const items = asItems(v.value);
  const subVars = v.vars ?? [];
  // Applied to the items as they are when the change lands (an upload may finish later).
  const setItem = (index: number, name: string, value: ValueChange) =>
    onValue((previous: unknown) =>
      asItems(previous).map((item, i) =>
        i === index ? { ...item, [name]: applyValueChange(value, item[name]) } : item,
      ),
    );
  return (
    <div className="list-items">
      <ol>
        {items.map((item, index) => (
          <li key={index} className="list-item" data-testid="list-item">
            <div className="list-item-head">
              <strong>
                {t('editor.list.item')} {index + 1}
              </strong>
              <ItemButtons
                items={items}
                index={index}
                onChange={onValue}
                upLabel={t('editor.list.up')}
                downLabel={t('editor.list.down')}
                testId="list-item"
              />
            </div>
            {subVars.map((sub) => (
              <div key={sub.name} className="field" data-testid={`var-${v.name}-${sub.name}`}>
                <label htmlFor={`${id}-${index}-${sub.name}`}>{sub.label || sub.name}</label>
                <ValueEditor
                  id={`${id}-${index}-${sub.name}`}
                  v={{ ...sub, value: item[sub.name] }}
                  onValue={(value) => setItem(index, sub.name, value)}
                  onPatch={() => undefined}
                />
              </div>
            ))}
          </li>
        ))}
      </ol>
      <ActionButton size="small" onClick={() => onValue([...items, newItem(subVars)])} testId="list-add">
        {t('editor.list.add')}
      </ActionButton>
    </div>
  );
}

/** Collection source: which collection, filter, order, limit, offset, and each sub-definition's field. */
function CollectionSource({
  id,
  v,
  onPatch,
  slug,
}: Pick<ValueEditorProps, 'id' | 'v' | 'onPatch'> & { slug: string }) {
  const { t } = useTranslation();
  const { tables } = useEditorContext();
  const queryClient = useQueryClient();
  const table = tables.find((item) => item.slug === slug);
  const data = useCollectionData(table?.id);
  const fields = data.data?.fields ?? [];
  const fieldOptions = [
    { value: 'created_at', label: t('editor.bind.date') },
    { value: 'name', label: t('editor.bind.name') },
    ...fields.map((field) => ({ value: field.slug, label: field.name })),
  ];
  /** A choice among the collection's fields ('—' for none): what to filter or order by. */
  const fieldSelect = (
    selectId: string,
    value: string | undefined,
    set: (value: string) => void,
    testId: string,
  ) => (
    <select id={selectId} value={value ?? ''} onChange={(e) => set(e.target.value)} data-testid={testId}>
      <option value="">—</option>
      {fieldOptions.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
  const subVars = v.vars ?? [];
  /**
   * Binds the list to a collection and fills its items' fields from the collection's (see
   * `mapListFields`); the owner adjusts what was guessed. Without the fields (a failed read), the
   * list is bound and the fields are left as they were.
   */
  const bind = async (next: string) => {
    const chosen = tables.find((item) => item.slug === next);
    const fields = chosen
      ? await queryClient
          .fetchQuery({ ...collectionDataQueryOptions(chosen.id), retry: false })
          .then((answer) => answer.fields)
          .catch(() => null)
      : null;
    onPatch({ source: writeSource('db', next), ...(fields ? { vars: mapListFields(subVars, fields) } : {}) });
  };
  return (
    <div className="var-group" data-testid="list-db">
      <label htmlFor={`${id}-table`}>{t('editor.list.collection')}</label>
      <select
        id={`${id}-table`}
        value={slug}
        onChange={(e) => void bind(e.target.value)}
        data-testid="list-table"
      >
        <option value="">—</option>
        {tables.map((item) => (
          <option key={item.id} value={item.slug}>
            {item.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-filter`}>{t('editor.list.filter')}</label>
      <div className="var-row">
        {fieldSelect(
          `${id}-filter`,
          v.dbfilterfield,
          (value) => onPatch({ dbfilterfield: value }),
          'list-filter-field',
        )}
        <select
          aria-label={t('editor.list.operator')}
          value={v.dbfilterquery ?? '='}
          onChange={(e) => onPatch({ dbfilterquery: e.target.value as FilterOperator })}
          data-testid="list-filter-operator"
        >
          {OPERATORS.map((operator) => (
            <option key={operator} value={operator}>
              {operator}
            </option>
          ))}
        </select>
        <input
          aria-label={t('editor.list.filterValue')}
          value={v.dbfiltervalue ?? ''}
          onChange={(e) => onPatch({ dbfiltervalue: e.target.value })}
          data-testid="list-filter-value"
        />
      </div>
      <label htmlFor={`${id}-order`}>{t('editor.list.order')}</label>
      <div className="var-row">
        {fieldSelect(
          `${id}-order`,
          v.dborderfield,
          (value) => onPatch({ dborderfield: value }),
          'list-order-field',
        )}
        <select
          aria-label={t('editor.list.direction')}
          value={v.dborderdir ?? 'desc'}
          onChange={(e) => onPatch({ dborderdir: e.target.value === 'asc' ? 'asc' : 'desc' })}
          data-testid="list-order-dir"
        >
          <option value="asc">{t('editor.list.asc')}</option>
          <option value="desc">{t('editor.list.desc')}</option>
        </select>
      </div>
      <div className="var-row">
        <label className="var-small">
          <span>{t('editor.list.limit')}</span>
          <input
            type="number"
            min={1}
            max={MAX_RECORDS}
            value={v.dblimit ?? 10}
            onChange={(e) =>
              onPatch({
                dblimit: Math.min(MAX_RECORDS, Math.max(1, Math.round(Number(e.target.value) || 1))),
              })
            }
            data-testid="list-limit"
          />
        </label>
        <label className="var-small">
          <span>{t('editor.list.offset')}</span>
          <input
            type="number"
            min={0}
            value={v.dboffset ?? 0}
            onChange={(e) => onPatch({ dboffset: Math.max(0, Math.round(Number(e.target.value) || 0)) })}
            data-testid="list-offset"
          />
        </label>
      </div>
      {subVars.length > 0 && <p className="field-hint">{t('editor.list.fieldsHint')}</p>}
      {subVars.map((sub) => (
        <label key={sub.name} className="var-small">
          <span>{sub.label || sub.name}</span>
          <select
            value={sub.dbfield ?? ''}
            onChange={(e) =>
              onPatch({
                vars: subVars.map((item) =>
                  item.name === sub.name ? { ...item, dbfield: e.target.value } : item,
                ),
              })
            }
            data-testid={`list-dbfield-${sub.name}`}
          >
            <option value="">—</option>
            <option value="name">{t('editor.bind.name')}</option>
            <option value="slug">{t('editor.bind.slug')}</option>
            <option value="date">{t('editor.bind.date')}</option>
            <option value="permalink">{t('editor.bind.permalink')}</option>
            {fields.map((field) => (
              <option key={field.id} value={field.slug}>
                {field.name}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  );
}

/** API source: the https URL and where each sub-definition's value is in a record. */
function ApiSource({
  id,
  v,
  onPatch,
  url,
}: Pick<ValueEditorProps, 'id' | 'v' | 'onPatch'> & { url: string }) {
  const { t } = useTranslation();
  const map = v.sourceMap ?? {};
  const probe = useFetchExternal();
  const [result, setResult] = useState<string | null>(null);
  const tryUrl = () =>
    probe.mutate(url, {
      onSuccess: (answer) => {
        const found = apiRecords(answer);
        setResult(
          found
            ? t('editor.list.apiFound', { count: found.records.length, paths: found.paths.join(', ') || '—' })
            : t('editor.list.apiNotList'),
        );
      },
      onError: (error) => setResult(errorMessage(error)),
    });
  return (
    <div className="var-group" data-testid="list-api">
      <label htmlFor={`${id}-url`}>{t('editor.list.url')}</label>
      <div className="var-row">
        <input
          id={`${id}-url`}
          type="url"
          placeholder="https://"
          value={url}
          onChange={(e) => onPatch({ source: writeSource('api', e.target.value) })}
          data-testid="list-api-url"
        />
        <ActionButton
          size="small"
          disabled={!url.startsWith('https://') || probe.isPending}
          onClick={tryUrl}
          testId="list-api-try"
        >
          {t('editor.list.apiTry')}
        </ActionButton>
      </div>
      {result !== null && (
        <p className="field-hint" role="status" data-testid="list-api-result">
          {result}
        </p>
      )}
      <p className="field-hint">{t('editor.list.sourceMapHint')}</p>
      {(v.vars ?? []).map((sub) => (
        <label key={sub.name} className="var-small">
          <span>{sub.label || sub.name}</span>
          <input
            value={map[sub.name] ?? ''}
            placeholder="title"
            onChange={(e) => onPatch({ sourceMap: { ...map, [sub.name]: e.target.value } })}
            data-testid={`list-map-${sub.name}`}
          />
        </label>
      ))}
    </div>
  );
}

/** `list` variables: Manual, Collection or API (spec §4 "Data source of a repeating block"). */
export function ListEditor({ id, v, onValue, onPatch }: ValueEditorProps) {
  const { t } = useTranslation();
  const source = readSource(v.source);
  return (
    <div className="list-editor">
      <label htmlFor={`${id}-source`}>{t('editor.list.source')}</label>
      <select
        id={`${id}-source`}
        value={source.kind}
        onChange={(e) => onPatch({ source: writeSource(e.target.value as 'manual' | 'db' | 'api', '') })}
        data-testid="list-source"
      >
        <option value="manual">{t('editor.list.manual')}</option>
        <option value="db">{t('editor.list.collection')}</option>
        <option value="api">{t('editor.list.api')}</option>
      </select>
      {source.kind === 'manual' && <ManualItems id={id} v={v} onValue={onValue} />}
      {source.kind === 'db' && <CollectionSource id={id} v={v} onPatch={onPatch} slug={source.target} />}
      {source.kind === 'api' && <ApiSource id={id} v={v} onPatch={onPatch} url={source.target} />}
    </div>
  );
}
