import type { Session } from 'fastify';
import type { SessionStore } from '@fastify/session';
import { sha256Hex } from '../core/secrets';
import type { DashboardRepo } from '../store/dashboard.repo';

declare module 'fastify' {
  interface Session {
    /** Set at sign-in: the project, user and API key the dashboard acts as. */
    projectId?: string;
    userId?: string;
    apiKeyId?: string;
  }
}

/**
 * The dashboard's sessions in the database (so every Omniport process shares them). A session lives as
 * long as its cookie and its API key: a revoked key ends every session signed in with it at the next
 * request. Only signed-in sessions are stored; the table holds the SHA-256 of the session id.
 */
export class DatabaseSessionStore implements SessionStore {
  constructor(
    private readonly repo: DashboardRepo,
    private readonly lifetimeMs: number,
  ) {}

  set(sessionId: string, session: Session, callback: (err?: unknown) => void): void {
    if (!session.apiKeyId || !session.projectId) return callback();
    const expires = session.cookie.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.lifetimeMs);
    this.repo
      .saveSession(sha256Hex(sessionId), { projectId: session.projectId, apiKeyId: session.apiKeyId, data: JSON.parse(JSON.stringify(session)) }, expires)
      .then(() => callback(), callback);
  }

  get(sessionId: string, callback: (err: unknown, result?: Session | null) => void): void {
    this.repo
      .findLiveSession(sha256Hex(sessionId), new Date())
      .then((row) => {
        if (!row) return callback(null, null);
        const data = row.data as unknown as Session;
        // The project and key come from the row, never from the stored copy alone.
        callback(null, { ...data, projectId: row.projectId, apiKeyId: row.apiKeyId });
      }, callback);
  }

  destroy(sessionId: string, callback: (err?: unknown) => void): void {
    this.repo.deleteSession(sha256Hex(sessionId)).then(() => callback(), callback);
  }
}
