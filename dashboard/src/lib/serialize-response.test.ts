import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { serializeResponse } from './serialize-response';

describe('serializeResponse', () => {
  it('puts an API error back in its body shape, with the status', () => {
    const message = 'Something went wrong on our side. Please try again.';
    const error = new ApiError(500, 'internal', message);
    expect(JSON.parse(serializeResponse(error))).toEqual({ status: 500, error: 'internal', message });
  });

  it('keeps the field, values and details when the server sent them', () => {
    const detail = { row: 2, column: 'preco', code: 'value_not_amount', message: 'Preço must be an amount' };
    const error = new ApiError(422, 'value_not_amount', 'Row 2: Preço must be an amount', 'rows', [detail], {
      row: 2,
    });
    expect(JSON.parse(serializeResponse(error))).toMatchObject({
      field: 'rows',
      params: { row: 2 },
      details: [detail],
    });
  });

  it('says what the browser said when no answer came', () => {
    expect(JSON.parse(serializeResponse(new TypeError('Failed to fetch')))).toEqual({
      error: 'TypeError',
      message: 'Failed to fetch',
    });
  });
});
