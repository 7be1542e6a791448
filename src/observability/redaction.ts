/** Paths that never reach a log line in clear. */
export const redactedPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["x-connection-token"]',
  'req.headers.cookie',
  '*.api_key',
  '*.apiKey',
  '*.access_token',
  '*.refresh_token',
  '*.api_token',
  '*.password',
  '*.client_secret',
  '*.credentials',
  '*.connection_token',
];
