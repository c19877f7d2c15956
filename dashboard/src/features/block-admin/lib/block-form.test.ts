import { describe, expect, it } from 'vitest';
import {
  blockFormValues,
  blockPayload,
  categoryPayload,
  jsonDownloadHref,
  parseOrder,
  svgImageSrc,
} from './block-form';
import { parseScreenshotSize, screenshotUrl } from './screenshot';

const values = { ...blockFormValues(null, 3), name: ' Hero ', template: '<section>{{title}}</section>' };

describe('block form', () => {
  it('starts a new block in the given category with order 99', () => {
    expect(blockFormValues(null, 3)).toMatchObject({ categoryId: '3', order: '99', name: '' });
  });

  it('builds the payload with the trimmed name and the order', () => {
    expect(blockPayload({ ...values, order: '4', keywords: ' hero, topo ' })).toEqual({
      payload: {
        name: 'Hero',
        category_id: 3,
        image: '',
        keywords: 'hero, topo',
        template: values.template,
        css: '',
        js: '',
        order: 4,
      },
    });
    expect(blockPayload({ ...values, order: '' })).toMatchObject({ payload: { order: 99 } });
  });

  it('refuses a missing or long name, a missing category and a negative, broken or huge order', () => {
    expect(blockPayload({ ...values, name: '  ' })).toEqual({ error: 'nameRequired' });
    expect(blockPayload({ ...values, name: 'a'.repeat(201) })).toEqual({ error: 'nameTooLong' });
    expect(blockPayload({ ...values, name: 'a'.repeat(200) })).toMatchObject({
      payload: { name: 'a'.repeat(200) },
    });
    expect(blockPayload({ ...values, order: '1000001' })).toEqual({ error: 'orderInvalid' });
    expect(blockPayload({ ...values, categoryId: '' })).toEqual({ error: 'categoryRequired' });
    expect(blockPayload({ ...values, template: '' })).toMatchObject({ payload: { template: '' } });
    expect(blockPayload({ ...values, order: '-1' })).toEqual({ error: 'orderInvalid' });
    expect(blockPayload({ ...values, order: '1.5' })).toEqual({ error: 'orderInvalid' });
  });

  it('reads orders', () => {
    expect(parseOrder(' 0 ')).toBe(0);
    expect(parseOrder('')).toBeUndefined();
    expect(parseOrder('a')).toBeNull();
  });
});

describe('category form', () => {
  it('needs a name and sends icon and order', () => {
    expect(categoryPayload({ name: '', icon: '', order: '1' })).toEqual({ error: 'nameRequired' });
    expect(categoryPayload({ name: ' Heros ', icon: '<svg/>', order: '2' })).toEqual({
      payload: { name: 'Heros', icon: '<svg/>', order: 2 },
    });
    expect(categoryPayload({ name: 'A', icon: '', order: '' })).toEqual({
      payload: { name: 'A', icon: '', order: 99 },
    });
    expect(categoryPayload({ name: 'a'.repeat(101), icon: '', order: '' })).toEqual({ error: 'nameTooLong' });
  });
});

describe('screenshot options', () => {
  it('parses a size and builds the URL with or without trim', () => {
    expect(parseScreenshotSize('1280,600')).toEqual({ width: 1280, height: 600 });
    expect(parseScreenshotSize(' 800 x 400 ')).toEqual({ width: 800, height: 400 });
    expect(parseScreenshotSize('0,600')).toBeNull();
    expect(parseScreenshotSize('big')).toBeNull();
    expect(screenshotUrl(5, { width: 1280, height: 600, trim: true })).toBe(
      '/api/block-screenshot/5?size=1280,600&trim=1',
    );
    expect(screenshotUrl(5, { width: 800, height: 400, trim: false })).toBe(
      '/api/block-screenshot/5?size=800,400',
    );
  });
});

describe('export and icons', () => {
  it('makes data URLs', () => {
    expect(jsonDownloadHref('[1]')).toBe('data:application/json;charset=utf-8,%5B1%5D');
    expect(svgImageSrc('  ')).toBeNull();
    expect(svgImageSrc('<svg/>')).toBe('data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E');
  });
});
