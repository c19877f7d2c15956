/**
 * Client-side validation mirroring the server's domain types (shared/src/domain.rs).
 * Both are checked against ../shared/testdata/validation.json; change them together.
 * Zod messages are i18n keys, translated where the issue is shown.
 */
import { z } from 'zod';
import { issueMessage } from './issue-message';

// Zod-free, so forms that load zod lazily (the sign-in page's) read the messages without it.
export { issueMessage, readIssueMessage } from './issue-message';

/** trim → strip accents → lower-case → [^a-z0-9_-] to '-' → collapse '-' → trim '-'. */
export function slugify(input: string): string {
  return input
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Page slugs keep inner '/' separators; an empty result is the home page '/'. */
export function normalizePageSlug(input: string): string {
  const segments = input
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .map(slugify)
    .filter((segment) => segment.length > 0);
  return segments.length === 0 ? '/' : segments.join('/');
}

const PREVIEW_SLUG = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A preview slug becomes one DNS label under the platform domain. */
export function isValidPreviewSlug(value: string): boolean {
  return PREVIEW_SLUG.test(value) && !isReservedPreviewSlug(value);
}

/**
 * Preview slugs no tenant may take: the platform's own hosts, names software looks up by
 * convention (wpad, autodiscover…), and names that read as the platform in a phishing link.
 * The same list as RESERVED_SLUGS in shared/src/domain.rs, which says why each is there.
 */
export const RESERVED_SLUGS: readonly string[] = [
  'abuse',
  'account',
  'accounts',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'autoconfig',
  'autodiscover',
  'billing',
  'blog',
  'cdn',
  'console',
  'dashboard',
  'dns',
  'docs',
  'edge',
  'email',
  'files',
  'ftp',
  'help',
  'images',
  'imap',
  'img',
  'isatap',
  'localhost',
  'login',
  'logout',
  'mail',
  'media',
  'mta-sts',
  'mx',
  'ns',
  'ns1',
  'ns2',
  'pay',
  'payments',
  'pop',
  'pop3',
  'register',
  'secure',
  'security',
  'sftp',
  'signin',
  'signup',
  'sites',
  'smtp',
  'sso',
  'static',
  'status',
  'support',
  'uploads',
  'verify',
  'vitrine',
  'vpn',
  'webmail',
  'wpad',
  'www',
];

/** Reserved: a listed word, or `--` in the third and fourth characters (punycode's `xn--`). */
export function isReservedPreviewSlug(value: string): boolean {
  const slug = value.trim().toLowerCase();
  return RESERVED_SLUGS.includes(slug) || slug.slice(2, 4) === '--';
}

/**
 * What is wrong with a preview slug, as an i18n key, or null. `current` is the project's own
 * slug, which it keeps even if it became reserved after it was taken (as the server does).
 */
export function previewSlugError(value: string, current = ''): string | null {
  const slug = value.trim();
  if (current && slug.toLowerCase() === current.toLowerCase()) return null;
  if (!PREVIEW_SLUG.test(slug)) return 'validation.slugInvalid';
  if (isReservedPreviewSlug(slug)) return 'validation.slugReserved';
  return null;
}

export function isValidDomain(value: string): boolean {
  const domain = value.toLowerCase();
  if (domain.length === 0 || domain.length > 253) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => DOMAIN_LABEL.test(label))) return false;
  const last = labels[labels.length - 1] ?? '';
  return /[a-z]/.test(last);
}

/**
 * The host of what an owner pasted where a domain goes (`pasted_host` in shared/src/domain.rs):
 * "https://WWW.X.com.br/" is "www.x.com.br". The browser's WHATWG `URL` reads it, as the
 * server's `url` crate does, so both clean alike (a port, a path, a query and a trailing dot go;
 * an internationalised name is written in ASCII). What is no URL at all comes back trimmed.
 */
export function cleanDomainInput(value: string): string {
  const s = value.trim();
  if (s === '') return s;
  const absolute = s.includes('://') ? s : `http://${s.replace(/^\/+/, '')}`;
  try {
    const host = new URL(absolute).hostname;
    return host === '' ? s : host.replace(/\.+$/, '').toLowerCase();
  } catch {
    return s;
  }
}

export function isValidEmail(value: string): boolean {
  const parts = value.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;
  return local.length > 0 && !/\s/.test(local) && isValidDomain(domain);
}

/*
 * zod fields built on the checks above. Forms compose their schemas from these, and
 * validation.test.ts runs the shared vectors through them as well as through the functions, so
 * a form cannot drift from the server's rules.
 */

/** A slug as the server stores it (normalised, never refused: "!!!" becomes ""). */
export const slugField = z.string().transform(slugify);

/** A page slug as the server stores it ("/About Us/" → "about-us", "" → "/"). */
export const pageSlugField = z.string().transform(normalizePageSlug);

/** A project's preview slug; `current` is the project's own, which it may keep. */
export function previewSlugField(current = '') {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = previewSlugError(value, current);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** A custom domain ("Sub.Example.ORG" is kept as typed; the check ignores case). */
export const domainField = z.string().refine(isValidDomain, 'validation.invalidDomain');

/** A custom domain as an owner pastes it: cleaned to its host (`cleanDomainInput`), then checked. */
export const pastedDomainField = z.string().transform(cleanDomainInput).pipe(domainField);

/** A required e-mail address. */
export const emailField = z
  .string()
  .min(1, 'validation.emailRequired')
  .refine((value) => value.length === 0 || isValidEmail(value), 'validation.emailInvalid');

/** A new password: 8 to 256 characters, as `new_password` in shared/src/domain.rs. */
export const newPasswordField = z
  .string()
  .min(1, 'validation.passwordRequired')
  .refine((value) => value.length === 0 || [...value].length >= 8, 'forms.validation.passwordTooShort')
  .refine((value) => new TextEncoder().encode(value).length <= 256, 'forms.validation.passwordTooLong');

/** The length of a text as the server counts characters (`chars().count()` in Rust). */
function charCount(value: string): number {
  return [...value].length;
}

/** Trimmed text that must be given, of at most `max` characters (`required_text` in domain.rs). */
export function requiredTextField(requiredKey: string, max: number, tooLongKey = 'validation.tooLong') {
  return z
    .string()
    .trim()
    .min(1, requiredKey)
    .refine((value) => charCount(value) <= max, issueMessage(tooLongKey, { max }));
}

/** Free text of at most `max` characters (a template's category and description). */
export function maxCharsField(max: number) {
  return z.string().refine((value) => charCount(value) <= max, issueMessage('validation.tooLong', { max }));
}

/** Text of at most `max` bytes in UTF-8, as the server's `len()` checks (code, icons, keywords). */
export function maxBytesField(max: number) {
  return z
    .string()
    .refine(
      (value) => new TextEncoder().encode(value).length <= max,
      issueMessage('validation.tooLarge', { kb: Math.floor(max / 1024), max }),
    );
}

/** The highest order of a block, category or template (`check_order` in block_checks.rs). */
export const MAX_ORDER = 1_000_000;
/** The order the server gives a block or category sent without one. */
export const DEFAULT_ORDER = 99;

/**
 * An order typed in a number input: a whole number from 0 to MAX_ORDER. Empty is `fallback` when
 * one is given (the server's default), else an error.
 */
export function orderField(invalidKey: string, fallback?: number) {
  return z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === '' && fallback !== undefined) return fallback;
      if (!/^\d+$/.test(text) || Number(text) > MAX_ORDER) {
        ctx.addIssue({ code: 'custom', message: invalidKey });
        return z.NEVER;
      }
      return Number(text);
    });
}

/*
 * A block's descriptive fields, as control-plane/src/block_checks.rs checks them for the platform
 * library (routes/blocks/admin.rs) and a business's own blocks (routes/business_library.rs).
 */

/** A block's name: trimmed, required, 200 characters at most (`block_name`). */
export const blockNameField = requiredTextField(
  'validation.blockNameRequired',
  200,
  'validation.blockNameTooLong',
);

/** A block's comma-separated search words: 1000 bytes at most (`check_search_words`). */
export const blockKeywordsField = z.string().trim().pipe(maxBytesField(1000));

/** A block's HTML, CSS or JS: 256 KB at most each (`check_code`). */
export const blockCodeField = maxBytesField(256 * 1024);

/** A block's HTML: required besides (`check_code`: "The block's HTML is empty"). */
export const blockTemplateField = blockCodeField.refine(
  (value) => value.trim() !== '',
  'validation.blockHtmlRequired',
);

/** A block's or template's order, from 0 to 1,000,000; `fallback` stands for an empty input. */
export function blockOrderField(fallback?: number) {
  return orderField('validation.orderInvalid', fallback);
}

/** Project settings form (name, preview slug, description); `currentSlug` is the project's own. */
export function projectFormSchema(currentSlug = '') {
  return z.object({
    name: z.string().trim().min(1, 'validation.projectNameRequired'),
    slug: previewSlugField(currentSlug),
    description: z.string(),
  });
}
export type ProjectFormValues = z.infer<ReturnType<typeof projectFormSchema>>;

/** New project: only the name is asked. */
export const newProjectSchema = z.object({
  name: z.string().trim().min(1, 'validation.projectNameRequired'),
});

/** Integrations modal: token and pixel id are required once the conversion API is on; the pixel id is digits. */
export const integrationsSchema = z
  .object({
    conversionApiEnabled: z.boolean(),
    conversionApiAccessToken: z.string().trim(),
    // The server stores only digits here, enabled or not (`ProjectMetaInput::merge_into`).
    conversionApiPixelId: z
      .string()
      .trim()
      .refine((value) => /^[0-9]*$/.test(value), 'validation.pixelIdDigits'),
  })
  .superRefine((value, ctx) => {
    if (!value.conversionApiEnabled) return;
    if (value.conversionApiAccessToken.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['conversionApiAccessToken'],
        message: 'validation.accessTokenRequired',
      });
    }
    if (value.conversionApiPixelId.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['conversionApiPixelId'], message: 'validation.pixelIdRequired' });
    }
  });
export type IntegrationsValues = z.infer<typeof integrationsSchema>;

/** Flattens a zod error into `{ field: messageKey }` (first issue per field). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

/** "Save as template": the name the server requires (at most 200 characters, `save_template`). */
/**
 * "Save as template": a new template, or an update of an existing one (its snapshot replaced by
 * the project's, under the name given). Gives what `saveTemplate` sends.
 */
export const saveTemplateSchema = z
  .object({
    name: requiredTextField('validation.templateNameRequired', 200),
    mode: z.enum(['new', 'update']),
    /** The template to update (the list's key); null until one is chosen. */
    templateId: z.string().nullable(),
  })
  .refine((value) => value.mode !== 'update' || value.templateId !== null, {
    path: ['templateId'],
    message: 'validation.templateToUpdateRequired',
    when: () => true,
  })
  .transform(({ name, mode, templateId }) =>
    mode === 'update' ? { name, template_id: Number(templateId) } : { name },
  );
export type SaveTemplateValues = z.output<typeof saveTemplateSchema>;

/** "Use this template": the new project's name (at most 200 characters, `use_template`). */
export const useTemplateSchema = z.object({
  name: requiredTextField('validation.projectNameRequired', 200),
});

/** A page's name as the server requires it (`required_text` in routes/pages.rs: trimmed, 1 to 200 characters). */
export const pageNameField = requiredTextField('validation.pageNameRequired', 200);

/** The longest page slug the server stores (`update_page`, counted after normalising). */
export const MAX_PAGE_SLUG = 200;

/**
 * "+ Nova página": the name, the slug (stored normalised, as `normalizePageSlug`; left empty it is
 * the one the server derives from the name) and the type, a static page or a collection page,
 * which needs its collection. Gives what `createPage` sends.
 */
export const newPageSchema = z
  .object({
    name: pageNameField,
    slug: z
      .string()
      .transform((value) => (value.trim() === '' ? '' : normalizePageSlug(value)))
      .refine(
        (value) => value.length <= MAX_PAGE_SLUG,
        issueMessage('validation.tooLong', { max: MAX_PAGE_SLUG }),
      ),
    kind: z.enum(['static', 'collection']),
    /** The chosen collection's id (the list's key); null until one is chosen. */
    tableId: z.string().nullable(),
  })
  // Checked even when the name is missing, so a refused submit shows every error at once.
  .refine((value) => value.kind !== 'collection' || value.tableId !== null, {
    path: ['tableId'],
    message: 'validation.pageCollectionRequired',
    when: () => true,
  })
  .transform(({ name, slug, kind, tableId }) => ({
    name,
    slug: slug === '' ? normalizePageSlug(name) : slug,
    table_id: kind === 'collection' ? Number(tableId) : null,
  }));
export type NewPageFormValues = z.input<typeof newPageSchema>;
export type NewPageValues = z.output<typeof newPageSchema>;
