import type { ProviderManifest } from '../providers/manifest';
import type { ToolSpec } from './tools';

/**
 * A tool's description, written for a model: what the tool does (the route's own summary), how to use its
 * answer, and what the connection's provider cannot do (the manifest's limitations). Field meanings are in
 * the input schema, from the routes' field descriptions.
 */
export function describeTool(spec: ToolSpec, manifest: ProviderManifest | undefined): string {
  const parts = [`${spec.summary.replace(/[.;:]?$/, '.')}`];
  if (spec.routeDescription) parts.push(spec.routeDescription);
  const verb = spec.objectType ? spec.name.split('_')[1] : undefined;
  if (verb === 'list') {
    parts.push(
      'Answers one page from Omniport’s store (kept fresh by sync, see sync_get_status): `limit` objects (default 50), then pass `next_cursor` of the answer as `cursor` for the next page. ' +
        'Filters combine; times are ISO 8601.',
    );
  } else if (verb === 'get') {
    parts.push('`id` is Omniport’s id (the `id` of list answers; `remote_id` is the provider’s own id).');
  }
  if (spec.mutates) {
    parts.push(
      `Writes to the provider now${manifest ? ` (${manifest.displayName})` : ''}. \`idempotency_key\` is required: a fresh UUID per write; to retry after a timeout or an error, send the same key and arguments again and the first answer comes back (never a second write). ` +
        'If the answer is the error outcome_unknown, the write may have happened: list or get before writing again.',
    );
  }
  if (spec.name.endsWith('_batch')) parts.push('`items`: up to 100 objects, each as for the single create tool; one result per element, in order (a failed element is an error object).');
  if (spec.passthrough) parts.push('Calls the provider’s own API directly: use only for what the unified tools lack.');
  if (manifest && spec.vertical && manifest.limitations?.length) {
    parts.push(`${manifest.displayName}’s limitations: ${manifest.limitations.join(' ')}`);
  } else if (!manifest && spec.vertical) {
    parts.push('What each provider cannot do is in GET /providers (limitations), or the omniport://connection/capabilities resource of a session opened on the connection.');
  }
  return parts.join('\n\n');
}
