/**
 * Dataverse `$batch` (https://learn.microsoft.com/power-apps/developer/data-platform/webapi/execute-batch-operations-using-web-api):
 * a `multipart/mixed` request whose parts are `application/http` requests, here one change set per
 * request (each is all or nothing on its own), sent with `Prefer: odata.continue-on-error` so a refused
 * change set does not stop the next ones. The answer is `multipart/mixed` too: per change set, its
 * response (nested in a `changesetresponse` part), or the error that rolled it back.
 */
import { randomUUID } from 'node:crypto';
import { ProviderError } from '../http-client';
import type { AdapterContext } from '../types';
import { API } from './api';
import { dynamicsErrorMessage } from './http';

export interface BatchRequest {
  method: 'POST' | 'PATCH';
  /** Relative to the Web API root (`contacts?$select=…`). */
  url: string;
  headers?: Record<string, string>;
  body: unknown;
}

export interface BatchResponse {
  status: number;
  body: unknown;
}

/** The request body: one change set per request. */
export function batchBody(requests: BatchRequest[], boundary: string): string {
  const lines: string[] = [];
  requests.forEach((r, i) => {
    const changeset = `changeset_${randomUUID()}`;
    lines.push(`--${boundary}`, `Content-Type: multipart/mixed; boundary=${changeset}`, '');
    lines.push(`--${changeset}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', `Content-ID: ${i + 1}`, '');
    lines.push(`${r.method} ${API}/${r.url} HTTP/1.1`, 'Content-Type: application/json; type=entry');
    for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
    lines.push('', JSON.stringify(r.body), `--${changeset}--`);
  });
  lines.push(`--${boundary}--`, '');
  return lines.join('\r\n');
}

const boundaryOf = (contentType: string | undefined) => /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];

/** Splits a part into its headers (lower-cased names) and body. */
function splitHead(text: string): { headers: Record<string, string>; body: string } {
  const m = /\r?\n\r?\n/.exec(text);
  const head = m ? text.slice(0, m.index) : text;
  const body = m ? text.slice(m.index + m[0].length) : '';
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

/** The `application/http` responses of a multipart answer, in order, change sets flattened. */
export function parseBatch(text: string, contentType: string | undefined): BatchResponse[] {
  const boundary = boundaryOf(contentType);
  if (!boundary) return [];
  const out: BatchResponse[] = [];
  const parts = text.split(new RegExp(`\\r?\\n?--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:--)?`));
  for (const raw of parts) {
    const part = raw.replace(/^\r?\n/, '');
    if (part.trim() === '') continue;
    const { headers, body } = splitHead(part);
    const type = headers['content-type'] ?? '';
    if (/^multipart\/mixed/i.test(type)) {
      out.push(...parseBatch(body, type));
      continue;
    }
    if (!/^application\/http/i.test(type)) continue;
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(body)?.[1]);
    const http = splitHead(body.replace(/^HTTP\/1\.1[^\r\n]*\r?\n/, ''));
    const content = http.body.trim();
    let parsed: unknown = content;
    try {
      parsed = content ? JSON.parse(content) : null;
    } catch {
      // not JSON: kept as text
    }
    out.push({ status: Number.isFinite(status) ? status : 502, body: parsed });
  }
  return out;
}

/** Sends the requests in one `$batch` (at most 1,000); one response per request, in order. */
export async function sendBatch(ctx: AdapterContext, requests: BatchRequest[]): Promise<BatchResponse[]> {
  if (requests.length === 0) return [];
  const boundary = `batch_${randomUUID()}`;
  const res = await ctx.http.post<string>(`${API}/$batch`, {
    body: batchBody(requests, boundary),
    headers: { 'content-type': `multipart/mixed; boundary=${boundary}`, accept: 'application/json', 'odata-version': '4.0', 'odata-maxversion': '4.0', prefer: 'odata.continue-on-error' },
  });
  const answers = parseBatch(typeof res.data === 'string' ? res.data : '', res.headers['content-type']);
  return requests.map(
    (_, i) => answers[i] ?? { status: 502, body: { error: { code: 'no_answer', message: 'the $batch answer has no response for this request' } } },
  );
}

/** A refused request of a batch as the error of its element. */
export const batchError = (r: BatchResponse) => new ProviderError('dynamics', r.status, dynamicsErrorMessage(r.body), r.body);
