import { describe, expect, it } from 'vitest';
import { commentInput } from '../../src/core/unified/ticketing';

// The unified schema checks creator_type once for every provider: adapters receive USER or CONTACT only.
describe('commentInput.creator_type', () => {
  const base = { body: 'Hi', ticket_id: '7d8f0a55-8f4e-4f8f-9b8e-1f3c2b9a6d01' };

  it('accepts USER and CONTACT', () => {
    expect(commentInput.parse({ ...base, creator_type: 'USER' }).creator_type).toBe('USER');
    expect(commentInput.parse({ ...base, creator_type: 'CONTACT' }).creator_type).toBe('CONTACT');
    expect(commentInput.parse(base).creator_type).toBeUndefined();
  });

  it.each(['BOT', 'user', ''])('refuses %j, naming the field and the values it takes', (value) => {
    const r = commentInput.safeParse({ ...base, creator_type: value });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['creator_type'], message: 'must be one of USER, CONTACT' });
  });
});
