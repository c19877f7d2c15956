/**
 * Shapes of the control plane's JSON: readable names for the types generated from its OpenAPI
 * document (`./api/schema.d.ts`, from `../api/openapi.json` by `npm run api:types`). No shape is
 * written again here. Where the document says less than the server does (a string it fills from
 * a fixed list, values or settings it keeps as JSON, an `Option` field it always sends), a
 * narrowing on top of the generated type says what the server sends; each is a place where the
 * server's annotations could say more.
 */
import type { ApiErrorDetail, ErrorParams } from './api-client';
import type { components } from './api/schema';

type Schemas = components['schemas'];

/** The generated type with `keys` narrowed (fields the document types as plain strings or JSON). */
type Narrowed<T, N extends Partial<Record<keyof T, unknown>>> = Omit<T, keyof N> & N;

/**
 * The generated type with `keys` always present, null or not. utoipa documents an `Option` field
 * as not required, though the server sends it as null unless it says it leaves it out.
 */
type Sent<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> };

// Signing in.
export type LoginRequest = Schemas['LoginRequest'];
export type RegisterRequest = Schemas['RegisterRequest'];
export type NewPasswordRequest = Schemas['NewPasswordRequest'];

export type Language = Schemas['Language'];
export type PlanCode = Schemas['Plan'];
export type Currency = Schemas['Currency'];

/** One project permission: all projects, or a list of project ids let in or kept out (spec §3). */
export type Permissions = Schemas['Permissions'];

/**
 * The signed-in user. `plan`, `has_card` and `email_confirmed` are optional here though the server
 * always sends them: the screens read them as "not known yet" and the older tests' users lack them.
 */
export type User = Narrowed<
  Schemas['UserView'],
  { plan?: PlanCode; has_card?: boolean; email_confirmed?: boolean }
>;
export type PublicConfig = Schemas['PublicConfig'];
export type Font = Sent<Schemas['Font'], 'variants'>;
export type CustomFont = Schemas['CustomFont'];

/**
 * A project's settings (spec 1 §3 Project.meta): what an owner writes (`ProjectMetaInput`), the
 * form settings, and the keys only the server writes (the domain's verification).
 */
export type ProjectMeta = Schemas['ProjectMetaInput'] &
  Schemas['FormHistorySettings'] & {
    verified?: boolean;
    verifiedDomain?: string;
    verifiedTimestamp?: string;
  };

/**
 * Something a save kept but the owner should know (a redirect that hides a page, a page under a
 * redirect): a code (translated as `errors.<code>`), its values, and the server's English text.
 */
export type CodedWarning = Narrowed<Schemas['Warning'], { params?: ErrorParams }>;
export type ErrorCode = Schemas['ErrorCode'];

/** One finding of a DNS check: a code (translated as `errors.<code>`), its values, English text. */
export type DnsFinding = Narrowed<Schemas['Finding'], { params?: ErrorParams }>;
/**
 * What a DNS check found: the outcome's code, and each thing found and each record to set. The
 * code is any text: a result stored by another version may carry one this build does not know.
 */
export type DnsReport = Narrowed<
  Schemas['DnsReport'],
  { code?: string | null; params?: ErrorParams; details?: DnsFinding[] }
>;
/** A custom domain saved before it was proven: the server checks it again on its own. */
export type DomainCheck = Narrowed<Schemas['DomainCheckView'], { last_result?: DnsReport | null }>;

export type CertificateStatus = Schemas['CertState'];
/** The TLS certificate of the project's custom domain, as the edge obtains and renews it. */
export type Certificate = Schemas['CertificateStatus'];

/** A project as the list shows it; a single project's answer adds its content (`ProjectDetail`). */
export type Project = Narrowed<
  Omit<Schemas['ProjectView'], 'pages' | 'tables' | 'certificate'>,
  { meta: ProjectMeta; domain_check?: DomainCheck | null }
>;
export type PageSummary = Schemas['PageSummary'];
export type TableSummary = Schemas['CollectionSummary'];
/** A single project's answer (`GET /api/projects/{id}`), which lists its pages and collections. */
export type ProjectDetail = Project & {
  pages: PageSummary[];
  tables: TableSummary[];
  certificate?: Certificate | null;
};

/**
 * A page. Its blocks and meta are JSON to the document; the editor reads them as it would any JSON
 * (docs/blocks.md gives the blocks' shape) rather than trust a type. A page saved before
 * descriptions and images existed has null.
 */
export type Page = Narrowed<
  Schemas['PageView'],
  { blocks: unknown; meta: unknown; description: string | null; image: string | null }
>;

export type Template = Schemas['TemplateView'];
export type TemplatePage = Schemas['TemplatePage'];
export type TemplateDetail = Template & Pick<Schemas['TemplateDetail'], 'pages'>;

/**
 * One page of a list (redirects, form history), in Laravel's shape: `from`/`to` are the 1-based
 * positions of the first and last item shown (null on an empty page); `per_page` is -1 when
 * everything is on one page.
 */
export type Paginated<T> = Omit<Schemas['Paginated_RedirectView'], 'data'> & { data: T[] };

// Account and billing (spec 2 §3, §9). Amounts are integer minor units.
export type Balance = Schemas['Balance'];
export type StorageUsage = Schemas['StorageView'];
export type DayTotal = Schemas['DayTotal'];
export type MonthTransactions = Schemas['MonthHistory'];
export type Transaction = Schemas['Transaction'];
export type AccountPayload = Schemas['AccountUpdate'];
export type StripeConfig = Schemas['StripeConfig'];
export type PlanPrice = Schemas['PlanPrice'];
export type AdminUserRow = Schemas['UserRow'];

// Business users.
/** A user of the caller's business; `email_confirmed` is not known for a user just made. */
export type BusinessUser = Narrowed<Schemas['BusinessUserView'], { email_confirmed?: boolean }>;
export type BusinessUserPayload = Schemas['BusinessUserInput'];

// Block libraries: the global one, My Blocks, the business's.
/** A block of the global library; no thumbnail is empty text, or null from older screens. */
export type LibraryBlock = Narrowed<Schemas['LibraryBlock'], { image: string | null }>;
export type LibraryCategory = Narrowed<Schemas['CategoryView'], { blocks: LibraryBlock[] }>;
export type MyBlock = Schemas['MyBlock'];
export type BusinessBlock = Schemas['BusinessBlock'];
export type SaveBusinessBlockInput = Schemas['BlockSource'];
export type BlockLibrary = Narrowed<Schemas['LibraryView'], { categories: LibraryCategory[] }>;
export type BlockPayload = Schemas['SaveBlock'];
export type CategoryPayload = Schemas['SaveCategory'];
/** One block's HTML, or its template error: the server sends exactly one of the two. */
export type RenderedBlock = Pick<Schemas['RenderedBlock'], 'uid'> & ({ html: string } | { error: string });
export type RenderResult = Narrowed<Schemas['RenderResponse'], { blocks: RenderedBlock[] }>;
export type Sections = Schemas['Sections'];
/** How many entries an /erp import wrote. */
export type Imported = Schemas['Imported'];
/** How far the pass that pictures the library's blocks and templates got (GET /erp/thumbnails). */
export type ThumbnailProgress = Schemas['ThumbnailProgress'];

// Publishing.
export type DeployStatus = Schemas['DeployStatus'];
/** One immutable deploy of a project: what a publish built, live or not. */
export type Deploy = Narrowed<Schemas['Deploy'], { status: DeployStatus; error_params?: ErrorParams }>;
export type DeployList = Omit<Schemas['DeployList'], 'data'> & { data: Deploy[] };
export type PublishWarning = CodedWarning;
export type PublishResult = Narrowed<Schemas['PublishView'], { deploy: Deploy; warnings?: PublishWarning[] }>;
/** One step of a build, as POST /api/publish_v2/{id}/events reports it while it runs. */
export type PublishStep = Schemas['Step'];
export type UnpublishResult = Schemas['UnpublishView'];

// Redirects and form history.
export type Redirect = Narrowed<Schemas['RedirectView'], { warnings?: CodedWarning[] }>;
export type FormEntry = Schemas['Paginated_Submission']['data'][number];
export type HistoryLimit = Schemas['HistoryLimit'];
export type FormHistory = Narrowed<
  Schemas['FormHistoryView'],
  { project: Project; history: Paginated<FormEntry>; limit: HistoryLimit }
>;
export type FormEmailStatus = Schemas['FormEmailStatus'];
export type FormEmail = Sent<Schemas['FormEmailView'], 'email' | 'requested_at' | 'confirmed_at'>;
export type ConfirmedFormEmail = Schemas['ConfirmedFormEmail'];

// The edge fleet.
export type EdgeNode = Schemas['EdgeView'];
export type EdgeOverview = Narrowed<Schemas['EdgesResponse'], { nodes: EdgeNode[] }>;
export type EdgeRecentError = Schemas['EdgeError'];
export type EdgeHistoryPoint = Schemas['EdgePoint'];

// Collections, fields and records.
/** The project a client token opens, with its collections. */
export type ClientContext = Schemas['ClientContext'];
/** The spreadsheet import link's own token (`null`: no link made yet). */
export type SheetLink = Sent<Schemas['SheetLink'], 'token'>;
/** `upsert`: a row whose slug names a stored record updates it; `insert`: every row is new. */
export type ImportMode = Schemas['WriteMode'];
/** What a row of an imported file does. */
export type ImportRowAction = Schemas['RowAction'];
/** One cell of a previewed row: what the file wrote, the stored value and how the site shows it. */
export type ImportPreviewCell = Narrowed<Schemas['PreviewCell'], { stored: unknown }>;
/** One of the file's first rows as it will be stored. */
export type ImportPreviewRow = Narrowed<Schemas['PreviewRow'], { cells: ImportPreviewCell[] }>;
/** The answer of an import and of its dry run: true counts, how the file was read, first rows. */
export type ImportSummary = Narrowed<
  Schemas['ImportSummary'],
  { problems: ApiErrorDetail[]; preview: ImportPreviewRow[] }
>;
export type PostFieldValue = Schemas['FieldValue'];
export type Post = Schemas['PostView'];

// Analytics (GET /api/projects/{id}/analytics).
export type AnalyticsDay = Schemas['AnalyticsDay'];
export type AnalyticsPage = Schemas['AnalyticsPage'];
export type AnalyticsReferrer = Schemas['AnalyticsReferrer'];
export type AnalyticsDeviceKind = 'mobile' | 'tablet' | 'desktop';
export type AnalyticsDevice = Narrowed<Schemas['AnalyticsDevice'], { device: AnalyticsDeviceKind }>;
export type AnalyticsLanguage = Schemas['AnalyticsLanguage'];
export type AnalyticsCampaign = Schemas['AnalyticsCampaign'];
export type AnalyticsConversions = Schemas['AnalyticsConversions'];
export type AnalyticsNotFound = Schemas['AnalyticsNotFound'];
export type AnalyticsDeploy = Schemas['AnalyticsDeploy'];
export type AnalyticsReport = Narrowed<Schemas['AnalyticsReport'], { devices: AnalyticsDevice[] }>;
