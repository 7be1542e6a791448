import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Services } from '../../services';
import { envelope, errorResponses } from '../schemas';

/**
 * The public address providers send their webhooks to (no API key: the provider's signature is the only
 * authentication). The body is kept as received, whatever its type, since signatures cover its bytes.
 */
export const providerWebhookRoutes: FastifyPluginAsyncZod<{ services: Services }> = async (app, { services }) => {
  // Scoped to this plugin: every other route keeps parsing JSON.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  // Intercom checks the address with a HEAD request when an app admin saves it (and refuses one that does
  // not answer 2xx). The same answer for every address: it tells nothing about which exist.
  app.head('/webhooks/providers/:provider/:routeKey', { config: { public: true }, schema: { hide: true, security: [] } }, async (_request, reply) => reply.status(200).send());

  app.post(
    '/webhooks/providers/:provider/:routeKey',
    {
      config: { public: true },
      schema: {
        // Called by providers, never by API clients: left out of the OpenAPI document and the SDK (docs/webhooks-in.md).
        hide: true,
        tags: ['webhooks'],
        summary: 'Receive a provider’s webhook (called by the provider, authenticated by its signature)',
        description:
          'The address Omniport registers at the provider (or an admin pastes in the provider’s settings). Requests whose signature, signed time or delivery id do not check out are refused with 401 and change nothing. See docs/webhooks-in.md.',
        security: [],
        params: z.object({ provider: z.string().max(64), routeKey: z.string().max(128) }),
        // 200: a provider checking the address (Front's challenge) gets the answer it asks for, as it words it.
        response: { 200: z.record(z.string(), z.unknown()), 202: envelope(z.object({ accepted: z.boolean(), streams: z.array(z.string()) })), ...errorResponses },
      },
    },
    async (request, reply) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? undefined : value;
      const outcome = await services.providerWebhooks.receive(request.params.provider, request.params.routeKey, { headers, rawBody, method: request.method, url: request.url });
      if (outcome.kind === 'challenge') return reply.status(200).send(outcome.answer);
      // A provider confirming a webhook being created (Asana's X-Hook-Secret) reads the answer's headers.
      if (outcome.kind === 'handshake') return reply.headers(outcome.headers).status(200).send({});
      const streams = outcome.kind === 'accepted' ? outcome.streams : [];
      return reply.status(202).send({ message: 'Webhook received', statusCode: 202, data: { accepted: outcome.kind === 'accepted', streams } });
    },
  );
};
