/**
 * The one fetch wrapper: same-origin JSON calls, typed errors, and the running-request
 * counter behind the global spinner.
 */
import i18n from 'i18next';
import { readEvents, type ServerEvent } from './event-stream';

/** The values a coded message names (`{ max: 200 }`). */
export type ErrorParams = Record<string, string | number>;

/** One entry of `details`: where a bulk operation (import, record save) failed, and why. */
export interface ApiErrorDetail {
  row?: number;
  column?: string;
  field_id?: number;
  /** The problem's stable code (`value_not_amount`), translated with `params`. */
  code?: string;
  /** The server's English text, shown only when the code is unknown to the catalogue. */
  message: string;
  params?: ErrorParams;
}

/**
 * Error body of the control plane: `{ error, message, field?, params?, details? }`. `code`
 * (the body's `error`) is one of the codes in shared/testdata/error-codes.json, which the
 * catalogues translate under `errors.<code>`; `message` is the server's English text.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly details: ApiErrorDetail[];
  readonly params: ErrorParams;

  constructor(
    status: number,
    code: string,
    message: string,
    field?: string,
    details: ApiErrorDetail[] = [],
    params: ErrorParams = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.details = details;
    this.params = params;
  }
}

/**
 * The client admin panel (/admin?token=…) has no session: while it is open every call carries
 * `X-Client-Token`. Set on entering the panel, cleared on leaving it.
 */
let clientToken: string | null = null;

export function setClientToken(token: string | null): void {
  clientToken = token;
}

export function getClientToken(): string | null {
  return clientToken;
}

let running = 0;
const listeners = new Set<() => void>();

function setRunning(next: number) {
  running = next;
  listeners.forEach((listener) => listener());
}

/** Number of requests in flight (for useSyncExternalStore). */
export function getRunningRequests(): number {
  return running;
}

export function subscribeRunningRequests(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  method?: Method;
  body?: unknown;
  signal?: AbortSignal;
  /** Overrides the panel-wide client token for this call. */
  clientToken?: string | null;
  /**
   * A background poll (the ops screen every 5 s): not counted as running, so the global spinner
   * does not blink while the screen already shows the previous answer.
   */
  quiet?: boolean;
  /** What the answer should be; JSON unless said otherwise. */
  accept?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function parseParams(value: unknown): ErrorParams {
  if (!isRecord(value)) return {};
  const params: ErrorParams = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' || typeof item === 'number') params[key] = item;
  }
  return params;
}

function parseDetails(value: unknown): ApiErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): ApiErrorDetail[] => {
    if (!isRecord(item) || typeof item.message !== 'string') return [];
    const detail: ApiErrorDetail = { message: item.message, params: parseParams(item.params) };
    if (typeof item.row === 'number') detail.row = item.row;
    if (typeof item.column === 'string') detail.column = item.column;
    if (typeof item.field_id === 'number') detail.field_id = item.field_id;
    if (typeof item.code === 'string') detail.code = item.code;
    return [detail];
  });
}

/** The error a JSON error body `{ error, message, field?, params?, details? }` describes; null for another shape. */
export function errorFromBody(status: number, parsed: unknown): ApiError | null {
  if (!isRecord(parsed) || typeof parsed.message !== 'string') return null;
  return new ApiError(
    status,
    typeof parsed.error === 'string' ? parsed.error : 'error',
    parsed.message,
    typeof parsed.field === 'string' ? parsed.field : undefined,
    parseDetails(parsed.details),
    parseParams(parsed.params),
  );
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    const coded = errorFromBody(response.status, parsed);
    if (coded) return coded;
    // Some calls answer only `{ error: text }` (the account and billing calls): that text is the message.
    if (isRecord(parsed) && typeof parsed.error === 'string') {
      return new ApiError(response.status, 'error', parsed.error);
    }
  } catch {
    // Not JSON (a proxy error page, for instance): fall through and show the text.
  }
  return new ApiError(response.status, 'error', text || response.statusText || `HTTP ${response.status}`);
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  const token = options.clientToken === undefined ? clientToken : options.clientToken;
  if (token) headers['X-Client-Token'] = token;
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers,
    signal: options.signal,
  };
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(options.body);
  }
  const counted = !options.quiet;
  if (counted) setRunning(running + 1);
  try {
    const response = await fetch(url, init);
    if (!response.ok) throw await toApiError(response);
    return response;
  } finally {
    if (counted) setRunning(running - 1);
  }
}

/** JSON call; resolves to `undefined` for 204 responses. */
export async function apiJson<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(url, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Call whose successful body is plain text (the upload endpoint answers with the file URL). */
export async function apiText(url: string, options: RequestOptions = {}): Promise<string> {
  const response = await send(url, options);
  return response.text();
}

/**
 * Call answered with server-sent events (`text/event-stream`): `onEvent` gets each event as it
 * arrives; resolves once the stream ends. A refusal before the stream starts throws like any call.
 */
export async function apiEvents(
  url: string,
  options: RequestOptions,
  onEvent: (event: ServerEvent) => void,
): Promise<void> {
  const response = await send(url, { ...options, accept: 'text/event-stream' });
  if (response.body) await readEvents(response.body, onEvent);
}

/** Call whose successful body is binary (an image); failures carry the server's text. */
export async function apiBlob(url: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(url, options);
  return response.blob();
}

/**
 * The text of a coded message in the interface's language: `errors.<code>` filled in with
 * `params`, else (a code the catalogue does not know) the server's own `fallback` text.
 */
export function codedMessage(code: string | undefined, params: ErrorParams = {}, fallback = ''): string {
  const key = `errors.${code}`;
  if (!code || !i18n.exists(key)) return fallback;
  return i18n.t(key, params);
}

/**
 * A message to show for any thrown value, in the user's language: an API error by its code
 * (with where it is, "Linha 3: …", and how many more problems follow), anything else by its
 * message.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (!i18n.exists(`errors.${error.code}`)) return error.message;
    let text = codedMessage(error.code, error.params, error.message);
    const { row, index, more } = error.params;
    if (typeof row === 'number') text = i18n.t('errors.context.row', { row, text });
    else if (typeof index === 'number') text = i18n.t('errors.context.item', { index, text });
    if (typeof more === 'number' && more > 0) text = i18n.t('errors.context.more', { count: more, text });
    return text;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** One detail of an error in the user's language. */
export function detailMessage(detail: ApiErrorDetail): string {
  return codedMessage(detail.code, detail.params, detail.message);
}

/** The message followed by one line per detail ("#3 price: must be an amount"), for alerts. */
export function errorWithDetails(error: unknown): string {
  const message = errorMessage(error);
  if (!(error instanceof ApiError) || error.details.length === 0) return message;
  const lines = error.details.map((detail) => {
    const where = [detail.row !== undefined ? `#${detail.row}` : '', detail.column ?? '']
      .filter(Boolean)
      .join(' ');
    const text = detailMessage(detail);
    return where ? `${where}: ${text}` : text;
  });
  return [message, ...lines].join('\n');
}
