/**
 * The one fetch wrapper: same-origin JSON calls, typed errors, and the running-request
 * counter behind the global spinner.
 */

/** Error body of the control plane: `{ error, message, field? }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
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

type Method = 'GET' | 'POST' | 'DELETE';

interface RequestOptions {
  method?: Method;
  body?: unknown;
  signal?: AbortSignal;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && typeof parsed.message === 'string') {
      return new ApiError(
        response.status,
        typeof parsed.error === 'string' ? parsed.error : 'error',
        parsed.message,
        typeof parsed.field === 'string' ? parsed.field : undefined,
      );
    }
  } catch {
    // Not JSON (a proxy error page, for instance): fall through and show the text.
  }
  return new ApiError(response.status, 'error', text || response.statusText || `HTTP ${response.status}`);
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
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
  setRunning(running + 1);
  try {
    const response = await fetch(url, init);
    if (!response.ok) throw await toApiError(response);
    return response;
  } finally {
    setRunning(running - 1);
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

/** A message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
