import { isDatabaseUnavailable, loggableError } from './store/database';

export interface GuardLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Keeps a long-running process (server, worker) alive through database outages. A dropped connection can
 * surface outside any request: a pg client's `error` event with no listener, or a rejection inside the
 * job queue library (pg-boss failing a job while the database is gone). Those are logged and the process
 * goes on; the pool reconnects when the database is back. Any other uncaught exception leaves the process
 * in an unknown state, so it is logged and the process exits for its supervisor to restart it.
 */
export function installProcessGuards(log: GuardLogger): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: loggableError(reason) }, 'unhandled promise rejection; the process keeps running');
  });
  process.on('uncaughtException', (err) => {
    if (isDatabaseUnavailable(err)) {
      log.warn({ err: loggableError(err) }, 'database connection lost; the process keeps running and reconnects');
      return;
    }
    log.error({ err: loggableError(err) }, 'uncaught exception; stopping');
    process.exit(1);
  });
}
