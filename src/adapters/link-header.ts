// The `Link` header of a paged answer (RFC 8288), as NRPS memberships and AGS line items page:
// `Link: <https://lms.example/…&page=2>; rel="next"`. Parsed with http-link-header, which handles
// quoting, several links in one header and several rel values in one link.
import LinkHeader from 'http-link-header';

/**
 * The absolute URL of the `rel="next"` link, resolved against the page it came with; null when
 * there is none. A next link that cannot be read throws: a caller that took it for the last page
 * would act on part of a list (e.g. withdraw the students of the pages it never read).
 */
export function nextPageUrl(headers: Headers, pageUrl: string): string | null {
  const value = headers.get('link');
  if (!value) return null;
  let uri: string | undefined;
  try {
    uri = LinkHeader.parse(value).rel('next')[0]?.uri;
  } catch (error) {
    throw new Error(`unreadable Link header (${(error as Error).message})`);
  }
  if (uri === undefined) return null;
  let next: URL;
  try {
    next = new URL(uri, pageUrl);
  } catch {
    throw new Error(`the next page's link is not a URL: ${uri.slice(0, 200)}`);
  }
  if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new Error(`the next page's link is not http(s): ${uri.slice(0, 200)}`);
  return next.toString();
}
