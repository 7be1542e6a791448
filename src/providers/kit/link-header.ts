import LinkHeader from 'http-link-header';

/**
 * The `rel="next"` URL of an RFC 8288 `Link` header (GitHub, GitLab, Freshdesk, ServiceNow paginate with it),
 * or null on the last page. Read by a parser, not a regular expression: a URL may hold commas and semicolons.
 */
export function nextLink(header: string | undefined | null): string | null {
  if (!header || !header.trim()) return null;
  try {
    return LinkHeader.parse(header).rel('next')[0]?.uri ?? null;
  } catch {
    return null;
  }
}

/** Whether a `Link` header names a next page. */
export const hasNextLink = (header: string | undefined | null): boolean => nextLink(header) !== null;
