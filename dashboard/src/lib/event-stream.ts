/**
 * Reads a `text/event-stream` body (server-sent events, WHATWG HTML §9.2) as it arrives: each
 * event's name and data. Only what the control plane sends is needed (`event:` and `data:`
 * lines, a blank line ending each event, `:` comments for keep-alive), so this is a few lines
 * here rather than a dependency; `EventSource` itself cannot send a POST with a body.
 */
export interface ServerEvent {
  /** The `event:` name; `message` when the event has none. */
  event: string;
  /** The `data:` lines, joined by newlines. */
  data: string;
}

/** Calls `onEvent` for each complete event in `body`, in order; resolves when the body ends. */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: ServerEvent) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let name = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) onEvent({ event: name || 'message', data: data.join('\n') });
      name = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  };
  for (;;) {
    const { done, value } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    const lines = buffer.split(/\r\n|\r|\n/);
    // The last piece may be a line still arriving.
    buffer = done ? '' : (lines.pop() ?? '');
    lines.forEach(line);
    if (done) return;
  }
}
