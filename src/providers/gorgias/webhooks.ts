/**
 * Gorgias webhooks in (docs/providers/gorgias.md, "Real-time updates"): one HTTP integration per connection,
 * created with `POST /api/integrations` (`type: "http"`, triggers ticket created, ticket updated and ticket
 * message created) and deleted with `DELETE /api/integrations/{id}`. Gorgias signs nothing: the integration
 * sends the headers it was given, so it carries a secret token Omniport generates in `X-Omniport-Webhook-Token`,
 * compared in constant time (as GitLab's `X-Gitlab-Token`: the body is not covered). Its body is a template
 * Omniport writes: the ticket's id, `updated_datetime`, `last_message_datetime` and `trashed_datetime`
 * (microseconds), so the body's hash is the delivery id: a replayed request is refused, a new change differs.
 * A trashed ticket is marked deleted at once; any other request runs the ticket and message streams.
 */
import { createHash } from 'node:crypto';
import type { ProviderWebhooks } from '../types';
import { deleteIfPresent } from '../webhook-registration';
import { header, safeEqual } from '../webhook-signatures';

export const GORGIAS_TOKEN_HEADER = 'x-omniport-webhook-token';

/** The triggers the integration subscribes to (Gorgias' names). */
export const GORGIAS_TRIGGERS = ['ticket-created', 'ticket-updated', 'ticket-message-created'];

/** The request body, rendered by Gorgias from the ticket (TicketHttpIntegration variables). */
const FORM = {
  ticket_id: '{{ticket.id}}',
  updated_datetime: '{{ticket.updated_datetime}}',
  last_message_datetime: '{{ticket.last_message_datetime}}',
  trashed_datetime: '{{ticket.trashed_datetime}}',
};

/** A rendered variable with a value (Gorgias renders a missing one as empty, its templates' null as "None"). */
const present = (v: unknown): v is string | number => (typeof v === 'string' && v !== '' && v !== 'None' && v !== 'null') || typeof v === 'number';

export const gorgiasWebhooks: ProviderWebhooks = {
  replayWindowSeconds: 0, // no signed time: replays are refused by delivery id
  verify(req, secret) {
    return safeEqual(header(req.headers, GORGIAS_TOKEN_HEADER), secret) ? { signedAt: null } : null;
  },
  parse(req, body) {
    const b = body as Record<string, unknown> | null;
    if (!b || typeof b !== 'object' || !present(b.ticket_id)) return null;
    const deliveryId = createHash('sha256').update(req.rawBody).digest('hex');
    if (present(b.trashed_datetime)) return { deliveryId, streams: [], deleted: [{ objectType: 'ticketing.ticket', remoteId: String(b.ticket_id) }] };
    // Gorgias does not say which trigger fired: a message changes the ticket's times too, so both run.
    return { deliveryId, streams: ['ticketing.ticket', 'ticketing.comment'] };
  },
  async register(ctx, url, secret) {
    const created = await ctx.http.post<{ id?: number }>('/api/integrations', {
      json: {
        name: 'Omniport real-time updates',
        type: 'http',
        description: 'Tells Omniport about ticket changes (created by Omniport; deleted with the connection).',
        http: {
          url,
          method: 'POST',
          headers: { [GORGIAS_TOKEN_HEADER]: secret },
          form: FORM,
          request_content_type: 'application/json',
          response_content_type: 'application/json',
          triggers: Object.fromEntries(GORGIAS_TRIGGERS.map((t) => [t, true])),
        },
      },
    });
    const id = created.data?.id;
    if (typeof id !== 'number') throw new Error('Gorgias did not name the integration it created');
    return { remoteIds: { integration: String(id) }, secret };
  },
  async unregister(ctx, remoteIds) {
    if (remoteIds.integration) await deleteIfPresent(ctx, `/api/integrations/${encodeURIComponent(remoteIds.integration)}`);
  },
};
