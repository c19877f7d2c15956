/**
 * The value editors of every variable type but `list` and `table` (docs/blocks.md), one component
 * a type, each taking `ValueEditorProps`. `registry.ts` maps the types to them; nothing else
 * imports them, so none of them knows the others (a list's items use the registry's).
 */
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';
import {
  asBackground,
  asBool,
  asColor,
  asHeading,
  asImage,
  asLink,
  asNumber,
  asOpacity,
  asPadding,
  asText,
  asUnit,
  BACKGROUND_TYPES,
  GRADIENT_ANGLES,
  HEADING_TAGS,
  POSITIONS,
  UNITS,
} from '@/features/pages/lib/var-values';
import type { BackgroundValue, PaddingValue, ValueChange } from '@/features/pages/types';
import { ColorField } from '@/components/ColorField';
import { useThemePalette } from '@/lib/site/palette';
import { useEditorContext } from '@/features/pages/components/editor-context';
import { ImageChooser } from './ImageChooser';
import { ImageUpload } from '@/components/ImageUpload';
import type { ValueEditorProps } from './ValueEditor';

const RichTextInput = lazy(() => import('./RichTextInput'));

function numberOr(text: string, fallback: number): number {
  const n = Number(text);
  return text.trim() === '' || !Number.isFinite(n) ? fallback : n;
}

/** Where the user's uploads go: under the user and the project. */
function useUploadPrefix(): number[] {
  const { userId, projectId } = useEditorContext();
  return [userId, projectId];
}

export function TextEditor({ id, v, onValue, placeholder }: ValueEditorProps) {
  return (
    <input
      id={id}
      value={asText(v.value)}
      placeholder={placeholder}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}

export function TextareaEditor({ id, v, onValue, placeholder }: ValueEditorProps) {
  return (
    <textarea
      id={id}
      rows={4}
      value={asText(v.value)}
      placeholder={placeholder}
      onChange={(e) => onValue(e.target.value)}
    />
  );
}

export function RichTextEditor({ id, v, onValue }: ValueEditorProps) {
  const { t } = useTranslation();
  const prefix = useUploadPrefix();
  return (
    <Suspense fallback={<p className="muted">{t('common.loading')}</p>}>
      <RichTextInput id={id} value={asText(v.value)} onChange={onValue} prefix={prefix} />
    </Suspense>
  );
}

export function ImageEditor({ id, v, onValue }: ValueEditorProps) {
  const { t } = useTranslation();
  const prefix = useUploadPrefix();
  const image = asImage(v.value);
  return (
    <div className="var-group">
      <ImageChooser
        id={id}
        src={image.src}
        prefix={prefix}
        // An upload lands later: merged into the value as it is then, not as it was.
        onChange={(src) => onValue((previous: unknown) => ({ ...asImage(previous), src }))}
        testId={id}
      />
      <input
        aria-label={t('editor.vars.alt')}
        placeholder={t('editor.vars.alt')}
        value={image.alt}
        onChange={(e) => onValue({ ...image, alt: e.target.value })}
      />
    </div>
  );
}

export function LinkEditor({ id, v, onValue, placeholder }: ValueEditorProps) {
  const { t } = useTranslation();
  const link = asLink(v.value);
  return (
    <div className="var-group">
      <input
        id={id}
        aria-label={t('editor.vars.href')}
        placeholder={placeholder ?? 'https://'}
        value={link.href}
        onChange={(e) => onValue({ ...link, href: e.target.value })}
      />
      <input
        aria-label={t('editor.vars.label')}
        placeholder={t('editor.vars.label')}
        value={link.label}
        onChange={(e) => onValue({ ...link, label: e.target.value })}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={link.target === '_blank'}
          onChange={(e) => onValue({ ...link, target: e.target.checked ? '_blank' : '_self' })}
        />
        {t('editor.vars.newTab')}
      </label>
    </div>
  );
}

export function ColorEditor({ id, v, onValue }: ValueEditorProps) {
  return <ColorVarInput id={id} value={v.value} name={v.label || v.name} onValue={onValue} />;
}

export function BackgroundEditor({ id, v, onValue }: ValueEditorProps) {
  const prefix = useUploadPrefix();
  return <BackgroundInput id={id} value={asBackground(v.value)} onValue={onValue} prefix={prefix} />;
}

export function UnitEditor({ id, v, onValue }: ValueEditorProps) {
  const { t } = useTranslation();
  const unit = asUnit(v.value);
  return (
    <div className="var-row">
      <input
        id={id}
        type="number"
        aria-label={t('editor.vars.value')}
        disabled={unit.unit === 'auto'}
        value={unit.value ?? ''}
        onChange={(e) =>
          onValue({ ...unit, value: e.target.value === '' ? null : numberOr(e.target.value, 0) })
        }
      />
      <select
        aria-label={t('editor.vars.unit')}
        value={unit.unit}
        onChange={(e) =>
          onValue({ value: e.target.value === 'auto' ? null : unit.value, unit: e.target.value })
        }
      >
        {UNITS.map((u) => (
          <option key={u} value={u}>
            {u}
          </option>
        ))}
      </select>
    </div>
  );
}

export function HeadingEditor({ id, v, onValue }: ValueEditorProps) {
  return (
    <select id={id} value={asHeading(v.value)} onChange={(e) => onValue(e.target.value)}>
      {HEADING_TAGS.map((tag) => (
        <option key={tag} value={tag}>
          {tag}
        </option>
      ))}
    </select>
  );
}

export function PaddingEditor({ id, v, onValue }: ValueEditorProps) {
  const { t } = useTranslation();
  const padding = asPadding(v.value);
  return (
    <div className="var-row">
      {(['top', 'right', 'bottom', 'left'] as (keyof PaddingValue)[]).map((side, i) => (
        <label key={side} className="var-small">
          <span>{t(`editor.vars.${side}`)}</span>
          <input
            id={i === 0 ? id : undefined}
            type="number"
            min={0}
            value={padding[side]}
            onChange={(e) => onValue({ ...padding, [side]: Math.max(0, numberOr(e.target.value, 0)) })}
          />
        </label>
      ))}
    </div>
  );
}

export function OpacityEditor({ id, v, onValue }: ValueEditorProps) {
  const fmt = useFormat();
  const opacity = asOpacity(v.value);
  return (
    <div className="var-row">
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.1}
        value={opacity}
        onChange={(e) => onValue(asOpacity(Number(e.target.value)))}
      />
      <output>{fmt.number(opacity, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}</output>
    </div>
  );
}

export function NumberEditor({ id, v, onValue }: ValueEditorProps) {
  return (
    <input
      id={id}
      type="number"
      min={v.min}
      max={v.max}
      step={v.step}
      value={asNumber(v.value, 0)}
      onChange={(e) => onValue(numberOr(e.target.value, 0))}
    />
  );
}

export function SelectEditor({ id, v, onValue }: ValueEditorProps) {
  return (
    <select id={id} value={asText(v.value)} onChange={(e) => onValue(e.target.value)}>
      {(v.options ?? []).map((option) => (
        <option key={option.value} value={option.value}>
          {option.name}
        </option>
      ))}
    </select>
  );
}

export function CheckboxEditor({ id, v, onValue }: ValueEditorProps) {
  return (
    <input id={id} type="checkbox" checked={asBool(v.value)} onChange={(e) => onValue(e.target.checked)} />
  );
}

/**
 * A `color` variable: the colour field with the theme's palette, and "Tema" (the empty value: the
 * block then uses the site theme's colour). A value that is no colour reads as the theme's.
 */
function ColorVarInput({
  id,
  value,
  name,
  onValue,
}: {
  id: string;
  value: unknown;
  name: string;
  onValue: (v: ValueChange) => void;
}) {
  const { projectId } = useEditorContext();
  const palette = useThemePalette(projectId);
  const text = asText(value);
  return (
    <ColorField
      id={id}
      name={name}
      value={text === '' ? '' : asColor(text)}
      onChange={onValue}
      palette={palette}
      allowTheme
      testId={id}
    />
  );
}

function BackgroundInput({
  id,
  value,
  onValue,
  prefix,
}: {
  id: string;
  value: BackgroundValue;
  onValue: (v: ValueChange) => void;
  prefix: number[];
}) {
  const { t } = useTranslation();
  const { projectId } = useEditorContext();
  const palette = useThemePalette(projectId);
  const set = (patch: Partial<BackgroundValue>) => onValue({ ...value, ...patch });
  return (
    <div className="var-group">
      <select
        id={id}
        aria-label={t('editor.vars.backgroundType')}
        value={value.type}
        onChange={(e) => set({ type: e.target.value as BackgroundValue['type'] })}
      >
        {BACKGROUND_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`editor.vars.background.${type}`)}
          </option>
        ))}
      </select>
      {value.type !== 'image' && (
        <div className="var-row">
          <ColorField
            id={`${id}-color`}
            name={t('editor.vars.color')}
            value={value.color}
            onChange={(color) => set({ color })}
            palette={palette}
            testId={`${id}-color`}
          />
          {value.type === 'gradient' && (
            <>
              <ColorField
                id={`${id}-color2`}
                name={t('editor.vars.color2')}
                value={value.color2}
                onChange={(color2) => set({ color2 })}
                palette={palette}
                testId={`${id}-color2`}
              />
              <select
                aria-label={t('editor.vars.angle')}
                value={value.angle}
                onChange={(e) => set({ angle: Number(e.target.value) as BackgroundValue['angle'] })}
              >
                {GRADIENT_ANGLES.map((angle) => (
                  <option key={angle} value={angle}>
                    {angle}°
                  </option>
                ))}
              </select>
            </>
          )}
        </div>
      )}
      {value.type === 'image' && (
        <>
          <input
            aria-label={t('editor.vars.src')}
            value={value.image}
            onChange={(e) => set({ image: e.target.value })}
          />
          <ImageUpload
            prefix={prefix}
            onUploaded={(image) => onValue((previous: unknown) => ({ ...asBackground(previous), image }))}
            testId={`${id}-upload`}
          />
          <div className="position-grid" role="radiogroup" aria-label={t('editor.vars.position')}>
            {POSITIONS.map((position) => (
              <button
                key={position}
                type="button"
                role="radio"
                aria-checked={value.position === position}
                title={t(`editor.vars.positions.${position.replace(' ', '-')}`)}
                className={`position-cell${value.position === position ? ' is-active' : ''}`}
                onClick={() => set({ position })}
              >
                <span className="sr-only">{t(`editor.vars.positions.${position.replace(' ', '-')}`)}</span>
              </button>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
