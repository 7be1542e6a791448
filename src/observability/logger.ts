import pino, { type LoggerOptions } from 'pino';
import type { Config } from '../config';
import { redactedPaths } from './redaction';

/** The one log format of every process (API server, worker, CLI): pino JSON lines, secrets redacted. */
export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return { level: config.logLevel, redact: { paths: redactedPaths, censor: '[redacted]' } };
}

export function createLogger(config: Pick<Config, 'logLevel'>) {
  return pino(loggerOptions(config));
}
