import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  blockKeywordsField,
  blockNameField,
  blockOrderField,
  blockTemplateField,
  maxBytesField,
  maxCharsField,
  requiredTextField,
  cleanDomainInput,
  domainField,
  emailField,
  fieldErrors,
  issueMessage,
  pageSlugField,
  pastedDomainField,
  previewSlugField,
  readIssueMessage,
  slugField,
  integrationsSchema,
  isValidDomain,
  isValidEmail,
  isReservedPreviewSlug,
  isValidPreviewSlug,
  newPageSchema,
  newProjectSchema,
  previewSlugError,
  RESERVED_SLUGS,
  normalizePageSlug,
  projectFormSchema,
  slugify,
} from './validation';

interface ValidityVectors {
  valid: string[];
  invalid: string[];
}
interface Vectors {
  slug: [string, string][];
  page_slug: [string, string][];
  preview_slug: ValidityVectors & { reserved: string[]; reserved_shapes: string[] };
  domain: ValidityVectors;
  domain_input: [string, string][];
  email: ValidityVectors;
}

// Path relative to dashboard/: ../shared/testdata/validation.json
const vectorsPath = fileURLToPath(new URL('../../../shared/testdata/validation.json', import.meta.url));
const vectors = JSON.parse(readFileSync(vectorsPath, 'utf8')) as Vectors;

describe('slugify', () => {
  it.each(vectors.slug)('slugify(%j) is %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});

describe('normalizePageSlug', () => {
  it.each(vectors.page_slug)('normalizePageSlug(%j) is %j', (input, expected) => {
    expect(normalizePageSlug(input)).toBe(expected);
  });
});

function checkValidity(name: string, set: ValidityVectors, check: (value: string) => boolean) {
  describe(name, () => {
    it.each(set.valid)('accepts %j', (value) => expect(check(value)).toBe(true));
    it.each(set.invalid)('rejects %j', (value) => expect(check(value)).toBe(false));
  });
}

checkValidity('isValidPreviewSlug', vectors.preview_slug, isValidPreviewSlug);

describe('reserved preview slugs', () => {
  it('are the same list as the server keeps', () => {
    expect([...RESERVED_SLUGS].sort()).toEqual([...vectors.preview_slug.reserved].sort());
  });

  it.each([...vectors.preview_slug.reserved, ...vectors.preview_slug.reserved_shapes])(
    'refuses %j as reserved',
    (slug) => {
      expect(isReservedPreviewSlug(slug)).toBe(true);
      expect(isValidPreviewSlug(slug)).toBe(false);
      expect(previewSlugError(slug)).toBe('validation.slugReserved');
    },
  );

  it('lets a project keep its own slug, and says what is wrong with another', () => {
    expect(previewSlugError('admin', 'Admin')).toBeNull();
    expect(previewSlugError('my site')).toBe('validation.slugInvalid');
    expect(previewSlugError('minha-loja')).toBeNull();
  });
});
checkValidity('isValidDomain', vectors.domain, isValidDomain);
checkValidity('isValidEmail', vectors.email, isValidEmail);

describe('cleanDomainInput', () => {
  it.each(vectors.domain_input)('cleans %j to %j', (input, expected) => {
    expect(cleanDomainInput(input)).toBe(expected);
  });
});

// The same vectors through the zod fields the forms are built from.
describe('slugField (zod)', () => {
  it.each(vectors.slug)('stores %j as %j', (input, expected) => {
    expect(slugField.parse(input)).toBe(expected);
  });
});

describe('pageSlugField (zod)', () => {
  it.each(vectors.page_slug)('stores %j as %j', (input, expected) => {
    expect(pageSlugField.parse(input)).toBe(expected);
  });
});

checkValidity(
  'previewSlugField (zod)',
  vectors.preview_slug,
  (value) => previewSlugField().safeParse(value).success,
);
checkValidity('domainField (zod)', vectors.domain, (value) => domainField.safeParse(value).success);

describe('pastedDomainField (zod)', () => {
  it('stores a pasted address as its host', () => {
    expect(pastedDomainField.parse(' https://WWW.X.com.br/ ')).toBe('www.x.com.br');
    expect(pastedDomainField.safeParse('https://localhost/').success).toBe(false);
  });
});
checkValidity('emailField (zod)', vectors.email, (value) => emailField.safeParse(value).success);

describe('zod fields say what is wrong', () => {
  it.each([...vectors.preview_slug.reserved, ...vectors.preview_slug.reserved_shapes])(
    'previewSlugField refuses %j as reserved',
    (slug) => {
      const result = previewSlugField().safeParse(slug);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error.issues[0]?.message).toBe('validation.slugReserved');
    },
  );

  it('names an empty e-mail as missing and a malformed one as invalid', () => {
    expect(emailField.safeParse('').error?.issues[0]?.message).toBe('validation.emailRequired');
    expect(emailField.safeParse('ana@').error?.issues[0]?.message).toBe('validation.emailInvalid');
  });
});

describe('issueMessage', () => {
  it('carries a key with its values through one string', () => {
    expect(readIssueMessage(issueMessage('redirects.errors.invalidChar', { c: '?' }))).toEqual({
      key: 'redirects.errors.invalidChar',
      values: { c: '?' },
    });
    expect(readIssueMessage(issueMessage('validation.emailInvalid'))).toEqual({
      key: 'validation.emailInvalid',
      values: {},
    });
  });
});

describe('projectFormSchema', () => {
  it('accepts a complete form', () => {
    expect(projectFormSchema().safeParse({ name: 'Loja', slug: 'loja-2', description: '' }).success).toBe(
      true,
    );
  });

  it('requires a name and a valid slug', () => {
    const result = projectFormSchema().safeParse({ name: '  ', slug: 'my site', description: '' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        name: 'validation.projectNameRequired',
        slug: 'validation.slugInvalid',
      });
    }
  });

  it('new project requires a name', () => {
    expect(newProjectSchema.safeParse({ name: '' }).success).toBe(false);
    expect(newProjectSchema.safeParse({ name: 'Site' }).success).toBe(true);
  });
});

describe('integrationsSchema', () => {
  it('does not require token nor pixel id when disabled', () => {
    const result = integrationsSchema.safeParse({
      conversionApiEnabled: false,
      conversionApiAccessToken: '',
      conversionApiPixelId: '',
    });
    expect(result.success).toBe(true);
  });

  it('requires token and pixel id when enabled', () => {
    const result = integrationsSchema.safeParse({
      conversionApiEnabled: true,
      conversionApiAccessToken: ' ',
      conversionApiPixelId: '',
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(fieldErrors(result.error)).toEqual({
        conversionApiAccessToken: 'validation.accessTokenRequired',
        conversionApiPixelId: 'validation.pixelIdRequired',
      });
    }
  });

  it('accepts an enabled integration with both values', () => {
    const result = integrationsSchema.safeParse({
      conversionApiEnabled: true,
      conversionApiAccessToken: 'EAAB',
      conversionApiPixelId: '123',
    });
    expect(result.success).toBe(true);
  });
});

describe('text length fields (the server counts characters, or bytes where it says len())', () => {
  it('requiredTextField trims, requires and counts characters, not bytes', () => {
    const name = requiredTextField('validation.userNameRequired', 3);
    expect(name.parse('  Ana  ')).toBe('Ana');
    expect(name.parse('ção')).toBe('ção');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('validation.userNameRequired');
    expect(name.safeParse('Anna').error?.issues[0]?.message).toBe(
      issueMessage('validation.tooLong', { max: 3 }),
    );
  });

  it('maxCharsField and maxBytesField', () => {
    expect(maxCharsField(2).safeParse('çã').success).toBe(true);
    expect(maxBytesField(2).safeParse('çã').success).toBe(false);
    expect(maxBytesField(4).safeParse('çã').success).toBe(true);
  });
});

describe('block fields (block_checks.rs)', () => {
  it('names: required, 200 characters at most', () => {
    expect(blockNameField.safeParse(' ').error?.issues[0]?.message).toBe('validation.blockNameRequired');
    expect(blockNameField.safeParse('a'.repeat(200)).success).toBe(true);
    expect(blockNameField.safeParse('a'.repeat(201)).success).toBe(false);
  });

  it('HTML required, search words 1000 bytes at most', () => {
    expect(blockTemplateField.safeParse(' \n ').error?.issues[0]?.message).toBe(
      'validation.blockHtmlRequired',
    );
    expect(blockTemplateField.safeParse('<p></p>').success).toBe(true);
    expect(blockKeywordsField.parse(' a, b ')).toBe('a, b');
    expect(blockKeywordsField.safeParse('ç'.repeat(501)).success).toBe(false);
  });

  it('orders: whole numbers from 0 to 1000000; empty is the default when there is one', () => {
    expect(blockOrderField(99).parse('')).toBe(99);
    expect(blockOrderField(99).parse(' 7 ')).toBe(7);
    expect(blockOrderField().parse('1000000')).toBe(1_000_000);
    for (const text of ['', '-1', '1.5', '1e3', 'x', '1000001'])
      expect(blockOrderField().safeParse(text).error?.issues[0]?.message).toBe('validation.orderInvalid');
  });
});

describe('newPageSchema (routes/pages.rs: create_page, then update_page for the slug and collection)', () => {
  const form = { name: 'Nossos Serviços', slug: '', kind: 'static' as const, tableId: null };

  it.each(vectors.page_slug.filter(([input]) => input.trim() !== ''))(
    'sends the slug %j as %j',
    (input, expected) => {
      expect(newPageSchema.parse({ ...form, slug: input }).slug).toBe(expected);
    },
  );

  it('takes the slug the server derives from the name when the slug is left empty', () => {
    expect(newPageSchema.parse({ ...form, slug: '  ' })).toEqual({
      name: 'Nossos Serviços',
      slug: 'nossos-servicos',
      table_id: null,
    });
  });

  it('requires a trimmed name of at most 200 characters, as the server counts them', () => {
    expect(fieldErrors(newPageSchema.safeParse({ ...form, name: '   ' }).error!)).toEqual({
      name: 'validation.pageNameRequired',
    });
    expect(newPageSchema.parse({ ...form, name: ` ${'ç'.repeat(200)} ` }).name).toBe('ç'.repeat(200));
    expect(fieldErrors(newPageSchema.safeParse({ ...form, name: 'ç'.repeat(201) }).error!)).toEqual({
      name: issueMessage('validation.tooLong', { max: 200 }),
    });
  });

  it('refuses a slug longer than 200 characters once normalised', () => {
    expect(newPageSchema.parse({ ...form, slug: `/${'a'.repeat(200)}/` }).slug).toBe('a'.repeat(200));
    expect(fieldErrors(newPageSchema.safeParse({ ...form, slug: 'a'.repeat(201) }).error!)).toEqual({
      slug: issueMessage('validation.tooLong', { max: 200 }),
    });
  });

  it('needs the collection of a collection page, and sends it as a number; a static page has none', () => {
    const collection = { ...form, kind: 'collection' as const };
    expect(fieldErrors(newPageSchema.safeParse({ ...collection, name: '' }).error!)).toEqual({
      name: 'validation.pageNameRequired',
      tableId: 'validation.pageCollectionRequired',
    });
    expect(newPageSchema.parse({ ...collection, tableId: '4' }).table_id).toBe(4);
    expect(newPageSchema.parse({ ...form, tableId: '4' }).table_id).toBeNull();
  });
});
