import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { serializeResponse } from './serialize-response';

describe('serializeResponse', () => {
  it('puts an API error back in its body shape, with the status', () => {
    const error = new ApiError(502, 'deploy_failed', 'object store unreachable');
    expect(JSON.parse(serializeResponse(error))).toEqual({
      status: 502,
      error: 'deploy_failed',
      message: 'object store unreachable',
    });
  });

  it('keeps the field and details when the server sent them', () => {
    const error = new ApiError(422, 'invalid', 'bad page', 'blocks', [{ row: 2, message: 'no template' }]);
    expect(JSON.parse(serializeResponse(error))).toMatchObject({
      field: 'blocks',
      details: [{ row: 2, message: 'no template' }],
    });
  });

  it('says what the browser said when no answer came', () => {
    expect(JSON.parse(serializeResponse(new TypeError('Failed to fetch')))).toEqual({
      error: 'TypeError',
      message: 'Failed to fetch',
    });
  });
});
