import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Services } from '../services';
import { AppError } from '../core/errors';
import { dispatchHeaders } from '../http/dispatch';
import type { ProviderManifest } from '../providers/manifest';
import { jsonSchemaOf, type ToolSpec } from './tools';
import { describeTool } from './descriptions';
import type { McpSession } from './session';

/** Who sent the MCP message being answered (each message is authenticated like a REST request). */
export interface CallerInfo {
  apiKey: string;
  requestId: string;
  ip: string;
}

type Answer = { status: number; body: Record<string, unknown>; replayed: boolean };

const idempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .describe('A fresh UUID for this write. Send the same one again to retry it after a timeout or an error: the write is then never made twice.');

/**
 * One MCP server per session: tools/list shows the session's tools, tools/call dispatches the call to the
 * tool's REST route inside the process (`app.inject`), so validation, Idempotency-Key, provider budgets and
 * error codes are the API's own, and records the call once in the audit log.
 */
export class OmniportMcp {
  constructor(
    private readonly app: FastifyInstance,
    private readonly services: Services,
    private readonly specs: () => ToolSpec[],
    readonly session: McpSession,
  ) {}

  private manifest(): ProviderManifest | undefined {
    return this.session.connection ? this.services.providers.get(this.session.connection.provider) : undefined;
  }

  /** Why a tool is not available to this session, or undefined when it is. */
  private async refusal(spec: ToolSpec): Promise<string | undefined> {
    const manifest = this.manifest();
    const scope = this.session.scope;
    if (manifest && spec.vertical && spec.vertical !== manifest.vertical) return `it belongs to ${spec.vertical}, and this session's connection is ${manifest.vertical}`;
    if (spec.passthrough && !scope.passthrough) return 'passthrough is off (open the session with x-mcp-passthrough: true)';
    if (spec.mutates && scope.readOnly) return `this session is read-only (${scope.readOnlyBecause})`;
    if (spec.mutates && (await this.services.projects.get(this.session.projectId)).mcpReadOnly) return 'the project is read-only for AI agents (PATCH /project mcp_read_only)';
    if (scope.tools && !scope.tools.has(spec.name)) return `it is not in the tool allowlist (${scope.toolsBecause})`;
    if (manifest && spec.capability && spec.objectType && !manifest.capabilities[spec.objectType]?.includes(spec.capability as never)) {
      return `${manifest.displayName} cannot ${spec.capability.replace('_', ' ')} ${spec.objectType} objects`;
    }
    return undefined;
  }

  async visibleTools(): Promise<ToolSpec[]> {
    const visible: ToolSpec[] = [];
    for (const spec of this.specs()) if (!(await this.refusal(spec))) visible.push(spec);
    return visible;
  }

  private toolOf(spec: ToolSpec): Tool {
    const shape: Record<string, z.ZodType> = { ...spec.inputShape };
    if (spec.idempotent) shape.idempotency_key = spec.mutates ? idempotencyKey : idempotencyKey.optional();
    if (!this.session.connection) {
      shape.connection = z.string().describe('The Omniport id of the connection to act on (GET /connections lists them; each answer names its connection).');
    }
    return {
      name: spec.name,
      description: describeTool(spec, this.manifest()),
      inputSchema: jsonSchemaOf(z.strictObject(shape), 'input') as Tool['inputSchema'],
      outputSchema: spec.outputSchema as Tool['outputSchema'],
      annotations: { readOnlyHint: !spec.mutates, destructiveHint: false, idempotentHint: spec.method !== 'POST' || spec.idempotent, openWorldHint: true },
    };
  }

  /** Sends the tool's REST request inside the process, as the caller. */
  private async dispatch(spec: ToolSpec, args: Record<string, unknown>, caller: CallerInfo): Promise<Answer> {
    const known = new Set([...Object.keys(spec.places), 'idempotency_key', ...(this.session.connection ? [] : ['connection'])]);
    const unknown = Object.keys(args).filter((k) => !known.has(k));
    if (unknown.length) throw new AppError('validation_failed', `unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (see the tool's input schema)`, { field: unknown[0] });
    const connectionId = this.session.connection?.id ?? args.connection;
    if (typeof connectionId !== 'string' || !connectionId) throw new AppError('validation_failed', 'connection: the Omniport id of a connection is required', { field: 'connection' });
    if (!this.session.connection) await this.session.checkConnection(connectionId);
    const key = args.idempotency_key;
    if (spec.mutates && (typeof key !== 'string' || !key)) {
      throw new AppError('validation_failed', 'idempotency_key: required on a write (a fresh UUID; the same one to retry the write)', { field: 'idempotency_key' });
    }
    let url = spec.url;
    const query: Record<string, string> = {};
    let body: Record<string, unknown> | unknown[] | undefined = spec.method === 'GET' ? undefined : spec.bodyIsArray ? undefined : {};
    for (const [name, value] of Object.entries(args)) {
      const place = spec.places[name];
      if (value === undefined || !place) continue;
      if (place === 'params') url = url.replace(`:${name}`, encodeURIComponent(String(value)));
      else if (place === 'query') query[name] = typeof value === 'string' ? value : JSON.stringify(value);
      else if (spec.bodyIsArray) body = value as unknown[];
      else (body as Record<string, unknown>)[name] = value;
    }
    if (url.includes('/:')) throw new AppError('validation_failed', `${url.split('/:')[1]}: required`, { field: url.split('/:')[1] });
    const res = await this.app.inject({
      method: spec.method as 'GET',
      url,
      query,
      headers: {
        'x-api-key': caller.apiKey,
        'x-request-id': caller.requestId,
        ...dispatchHeaders(connectionId),
        ...(spec.idempotent && typeof key === 'string' ? { 'idempotency-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      remoteAddress: caller.ip,
    });
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(res.body) as Record<string, unknown>;
    } catch {
      parsed = { message: res.body };
    }
    return { status: res.statusCode, body: parsed, replayed: res.headers['idempotent-replayed'] === 'true' };
  }

  private async audit(tool: string, caller: CallerInfo, connectionId: unknown, outcome: { status: number; code?: string; replayed?: boolean; action?: string }) {
    await this.services.audit
      .record({
        projectId: this.session.projectId,
        actor: { type: 'api_key', id: this.session.apiKeyId },
        action: 'mcp.tool_called',
        target: { type: 'connection', id: typeof connectionId === 'string' ? connectionId : undefined },
        requestId: caller.requestId,
        sourceAddress: caller.ip,
        details: {
          tool,
          status: outcome.status,
          ...(outcome.code ? { code: outcome.code } : {}),
          ...(outcome.replayed ? { replayed: true } : {}),
          ...(outcome.action ? { route_action: outcome.action } : {}),
          ...(this.session.client ? { client: this.session.client } : {}),
        },
      })
      .catch((err: Error) => this.app.log.error({ err: { message: err.message }, tool }, 'an audit entry could not be written'));
  }

  async callTool(name: string, args: Record<string, unknown>, caller: CallerInfo): Promise<CallToolResult> {
    const spec = this.specs().find((s) => s.name === name);
    const connectionId = this.session.connection?.id ?? args.connection;
    try {
      if (!spec) throw new AppError('not_found', `no tool named ${name} (tools/list shows this session's tools)`);
      const why = await this.refusal(spec);
      if (why) throw new AppError('forbidden', `the tool ${name} is not available: ${why}`);
      const answer = await this.dispatch(spec, args, caller);
      const code = (answer.body.details as { code?: string } | undefined)?.code;
      await this.audit(name, caller, connectionId, { status: answer.status, code: answer.status >= 400 ? code : undefined, replayed: answer.replayed, action: spec.auditAction });
      if (answer.status >= 400) return errorResult(answer.body, code);
      return { content: [{ type: 'text', text: render(answer.body) }], structuredContent: answer.body };
    } catch (err) {
      const error = err instanceof AppError ? err : new AppError('internal_error', 'the tool call failed');
      if (!(err instanceof AppError)) this.app.log.error({ err, tool: name }, 'an MCP tool call failed');
      await this.audit(name, caller, connectionId, { status: error.status, code: error.code });
      return errorResult({ statusCode: error.status, error: STATUS_CODES[error.status] ?? 'Error', message: error.message, details: { ...error.details, code: error.code, request_id: caller.requestId } }, error.code);
    }
  }

  /** The resource templates: each object by id, where the session may call its get tool. */
  async resourceTemplates() {
    return (await this.visibleTools())
      .filter((s) => s.objectType && s.url.endsWith('/:id') && s.method === 'GET')
      .map((s) => ({
        uriTemplate: `omniport:/${s.url.replace('/:id', '/{id}')}`,
        name: s.objectType!,
        description: `One ${s.objectType} of the connection by its Omniport id, as ${s.name} answers it (JSON).`,
        mimeType: 'application/json',
      }));
  }

  async readResource(uri: string, caller: CallerInfo) {
    if (uri === CAPABILITIES_URI) {
      const m = this.manifest();
      if (!m) throw new AppError('not_found', 'this session has no connection of its own: the capabilities are per connection');
      const text = JSON.stringify({ provider: m.name, display_name: m.displayName, vertical: m.vertical, capabilities: m.capabilities, limitations: m.limitations ?? [] }, null, 2);
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    }
    const match = /^omniport:\/\/(ticketing|crm)\/([a-z-]+)\/([^/?#]+)$/.exec(uri);
    const spec = match && this.specs().find((s) => s.method === 'GET' && s.url === `/${match[1]}/${match[2]}/:id`);
    if (!match || !spec) throw new AppError('not_found', `no resource ${uri} (resources/templates/list shows the forms)`);
    const result = await this.callTool(spec.name, { id: decodeURIComponent(match[3]!) }, caller);
    if (result.isError) throw new AppError('not_found', (result.content[0] as { text: string }).text.split('\n')[0]!);
    const data = (result.structuredContent as { data?: unknown }).data;
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] };
  }

  /** The SDK server answering this session's messages. */
  server(): Server {
    const server = new Server({ name: 'omniport', version: '0.1.0' }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
    const caller = (extra: { authInfo?: { token: string; extra?: Record<string, unknown> } }): CallerInfo => {
      if (!extra.authInfo) throw new AppError('unauthorized', 'an API key is required');
      return { apiKey: extra.authInfo.token, requestId: String(extra.authInfo.extra?.requestId), ip: String(extra.authInfo.extra?.ip) };
    };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await this.visibleTools()).map((s) => this.toolOf(s)) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => this.callTool(request.params.name, request.params.arguments ?? {}, caller(extra)));
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: this.session.connection
        ? [{ uri: CAPABILITIES_URI, name: 'capabilities', description: 'What this connection’s provider can do with each unified object, and its limitations.', mimeType: 'application/json' }]
        : [],
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: await this.resourceTemplates() }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => this.readResource(request.params.uri, caller(extra)));
    return server;
  }
}

export const CAPABILITIES_URI = 'omniport://connection/capabilities';

const INSTRUCTIONS =
  'Omniport: one set of tools over a customer’s help desk (ticketing_*) or CRM (crm_*). Reads (list, get) come from Omniport’s store, kept fresh by sync ' +
  '(sync_get_status; sync_start asks for a sync now). Writes go to the provider at once and take an idempotency_key: a fresh UUID per write, the same one to retry it. ' +
  'Errors carry a code (validation_failed, not_found, unsupported_by_provider, outcome_unknown …) and a message naming the fix.';

function errorResult(body: Record<string, unknown>, code: string | undefined): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${code ?? 'error'}: ${String(body.message)}\n${JSON.stringify(body)}` }] };
}

/** A short text rendering of an answer, for clients that show text only (the whole answer is structuredContent). */
export function render(body: Record<string, unknown>): string {
  const data = body.data;
  const label = (o: Record<string, unknown>) =>
    [o.id, o.name ?? o.title ?? o.subject ?? o.email_address ?? (typeof o.body === 'string' ? o.body.slice(0, 80) : undefined), o.status ?? o.stage]
      .filter((v) => v !== undefined && v !== null)
      .join(' · ');
  if (Array.isArray(data)) {
    const lines = data.slice(0, 20).map((o) => `- ${o && typeof o === 'object' ? label(o as Record<string, unknown>) : JSON.stringify(o)}`);
    const more = data.length > 20 ? [`… ${data.length - 20} more in structuredContent`] : [];
    const next = body.next_cursor ? [`next page: cursor ${String(body.next_cursor)}`] : [];
    return [`${String(body.message)}: ${data.length}`, ...lines, ...more, ...next].join('\n');
  }
  const json = JSON.stringify(data ?? body);
  return `${String(body.message ?? 'OK')}: ${json.length > 1500 ? `${json.slice(0, 1500)}…` : json}`;
}
