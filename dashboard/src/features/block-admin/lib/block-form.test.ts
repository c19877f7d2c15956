import { describe, expect, it } from 'vitest';
import { fieldErrors } from '@/lib/validation';
import {
  blockFormSchema,
  blockFormValues,
  categoryFormSchema,
  jsonDownloadHref,
  parseOrder,
  svgImageSrc,
} from './block-form';
import { parseScreenshotSize, screenshotUrl } from './screenshot';

const values = { ...blockFormValues(null, 3), name: ' Hero ', template: '<section>{{title}}</section>' };
const problems = (input: typeof values) => {
  const result = blockFormSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
};

describe('block form', () => {
  it('starts a new block in the given category with order 99', () => {
    expect(blockFormValues(null, 3)).toMatchObject({ categoryId: '3', order: '99', name: '' });
  });

  it('builds the payload with the trimmed name and the order', () => {
    expect(blockFormSchema.parse({ ...values, order: '4', keywords: ' hero, topo ' })).toEqual({
      name: 'Hero',
      category_id: 3,
      image: '',
      keywords: 'hero, topo',
      template: values.template,
      css: '',
      js: '',
      order: 4,
    });
    expect(blockFormSchema.parse({ ...values, order: '' })).toMatchObject({ order: 99 });
  });

  it('refuses what the server refuses, each problem at its field', () => {
    expect(problems({ ...values, name: '  ' })).toEqual({ name: 'validation.blockNameRequired' });
    expect(problems({ ...values, name: 'a'.repeat(201) })).toEqual({
      name: 'validation.blockNameTooLong|{"max":200}',
    });
    expect(problems({ ...values, name: 'á'.repeat(200) })).toEqual({});
    expect(problems({ ...values, categoryId: '' })).toEqual({
      categoryId: 'blockAdmin.block.errors.categoryRequired',
    });
    expect(problems({ ...values, template: '  ' })).toEqual({ template: 'validation.blockHtmlRequired' });
    expect(problems({ ...values, keywords: 'a'.repeat(1001) })).toEqual({
      keywords: 'validation.tooLarge|{"kb":0,"max":1000}',
    });
    for (const order of ['1000001', '-1', '1.5', 'x'])
      expect(problems({ ...values, order })).toEqual({ order: 'validation.orderInvalid' });
    expect(Object.keys(problems({ ...values, name: '', order: 'x', template: '' }))).toEqual([
      'name',
      'template',
      'order',
    ]);
  });

  it('reads orders', () => {
    expect(parseOrder(' 0 ')).toBe(0);
    expect(parseOrder('')).toBeUndefined();
    expect(parseOrder('a')).toBeNull();
  });
});

describe('category form', () => {
  it('needs a name of at most 100 characters and sends icon and order', () => {
    const refused = categoryFormSchema.safeParse({ name: '', icon: '', order: '1' });
    expect(refused.success ? {} : fieldErrors(refused.error)).toEqual({
      name: 'blockAdmin.category.errors.nameRequired',
    });
    expect(categoryFormSchema.parse({ name: ' Heros ', icon: '<svg/>', order: '2' })).toEqual({
      name: 'Heros',
      icon: '<svg/>',
      order: 2,
    });
    expect(categoryFormSchema.parse({ name: 'A', icon: '', order: '' })).toEqual({
      name: 'A',
      icon: '',
      order: 99,
    });
    expect(categoryFormSchema.safeParse({ name: 'a'.repeat(101), icon: '', order: '' }).success).toBe(false);
    expect(
      categoryFormSchema.safeParse({ name: 'A', icon: 'x'.repeat(16 * 1024 + 1), order: '' }).success,
    ).toBe(false);
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
