/** Shapes of the control plane's JSON, as in the API contract. */

export type Language = 'pt-BR' | 'en';

export interface User {
  id: number;
  name: string;
  email: string;
  language: Language;
  currency: Currency;
  business_id: number | null;
  is_admin: boolean;
  is_business_admin: boolean;
  permissions: { all_projects?: true; projects_whitelist?: number[]; projects_blacklist?: number[] };
  created_at: string;
  /** Set while an administrator is signed in as this user. */
  impersonator_id?: number | null;
  /** The account's plan (spec 2 §9); absent from older fixtures. */
  plan?: PlanCode;
  /** Whether a card is on file for billing. */
  has_card?: boolean;
  /** Whether the sign-in address confirmed it takes notification mail (form messages); absent from older fixtures. */
  email_confirmed?: boolean;
}

export type PlanCode = 'basic' | 'agency';
export type Currency = 'BRL' | 'USD';

export interface PublicConfig {
  platform_domain: string;
  preview_url_template: string;
  public_ip: string;
  cname_target: string;
  demo: { email: string; password: string } | null;
}

export interface Font {
  family: string;
  variants: string[];
}

export interface CustomFont extends Font {
  filename: string;
}

export interface ProjectMeta {
  description?: string;
  verified?: boolean;
  verifiedDomain?: string;
  verifiedTimestamp?: string;
  defaultFont?: Font | null;
  fonts?: Font[];
  customFonts?: CustomFont[];
  header?: string;
  footer?: string;
  favicon?: string;
  conversionApiEnabled?: boolean;
  conversionApiAccessToken?: string;
  conversionApiPixelId?: string;
  formHistoryOrderBy?: 'created_at' | '-created_at';
  /** The page (id) a visitor is sent to after a form is sent; none: the form's page confirms. */
  formThankYouPage?: number | null;
  /** Opt-in Strict-Transport-Security on the custom domain. */
  hsts?: boolean;
}

/**
 * Something a save kept but the owner should know (a redirect that hides a page, a page under a
 * redirect): a code (translated as `errors.<code>`), its values, and the server's English text.
 */
export interface CodedWarning {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

/** One finding of a DNS check: a code (translated as `errors.<code>`), its values, English text. */
export interface DnsFinding {
  code: string;
  message: string;
  params?: Record<string, string | number>;
}

/**
 * What a DNS check found (`POST /api/dns-verify` with `Accept: application/json`, and a pending
 * domain's last check): the outcome's code, and each thing found and each record to set.
 */
export interface DnsReport {
  /** Null only for a result the server stored as plain text before it sent codes. */
  code: string | null;
  message: string;
  params?: Record<string, string | number>;
  details?: DnsFinding[];
}

/** A custom domain saved before it was proven: the server checks it again on its own. */
export interface DomainCheck {
  domain: string;
  /** Checks so far (the owner's Verify counts). */
  checks: number;
  /** What the last check found. */
  last_result: DnsReport | null;
  checked_at: string | null;
  /** When the server checks again; null once it stopped (Verify starts the checks over). */
  next_check_at: string | null;
  created_at: string;
}

export interface Project {
  id: number;
  name: string;
  slug: string;
  /** The pending domain while it waits (`domain_check`), else the verified one. */
  domain: string | null;
  /** The value of the TXT record `_vitrine-challenge.{domain}` that proves the domain. */
  domain_token: string;
  /** The pending domain and its checks; null when none waits. */
  domain_check?: DomainCheck | null;
  token: string;
  uuid: string;
  is_published: boolean;
  thumbnail: string | null;
  created_at: string;
  updated_at: string;
  preview_url: string;
  meta: ProjectMeta;
}

export interface PageSummary {
  id: number;
  name: string;
  slug: string;
  table_id: number | null;
  is_home: boolean;
  updated_at: string;
}

export interface TableSummary {
  id: number;
  name: string;
  slug: string;
}

export type CertificateStatus = 'pending' | 'issued' | 'failing';

/** The TLS certificate of the project's custom domain, as the edge obtains and renews it. */
export interface Certificate {
  domain: string;
  status: CertificateStatus;
  expires_at: string | null;
  last_error: string | null;
  /** Failed attempts in a row. */
  failures: number;
  next_attempt_at: string | null;
}

export interface ProjectDetail extends Project {
  pages: PageSummary[];
  tables: TableSummary[];
  /** Null while no certificate was asked for (no verified domain yet). */
  certificate?: Certificate | null;
}

export interface Page {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  description: string | null;
  image: string | null;
  meta: unknown;
  output: unknown;
  blocks: unknown;
  table_id: number | null;
  is_home: boolean;
  created_at: string;
  updated_at: string;
}

export interface Template {
  id: number;
  name: string;
  description: string;
  category: string;
  order: number;
  is_published: '1' | '0';
  thumbnail: string | null;
}

/**
 * One page of a list (redirects, form history), in Laravel's shape: `from`/`to` are the 1-based
 * positions of the first and last item shown (null on an empty page); the page URLs are null at
 * the ends.
 */
export interface Paginated<T> {
  data: T[];
  total: number;
  /** -1 when everything is on one page. */
  per_page: number;
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
  prev_page_url: string | null;
  next_page_url: string | null;
}
