// How a SCORM package's files are served (docs/online-tests.md, "Assets and their isolation"):
// their content types, the sandbox they run in, and the bridge an HTML page gets so that the
// sandboxed package still finds the SCORM run-time API in the player's frame. Pure.

/**
 * Every asset answers under this policy. `sandbox` without `allow-same-origin` gives the document
 * an opaque origin: its scripts run, but cannot read the service origin's storage or cookies, nor
 * call the API as the viewer (a request from it carries no credentials and fails CORS).
 */
export const SCORM_ASSET_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals';

/**
 * What an HTML asset gets at the start of its <head>: the player's cross-frame API (served by the
 * player's routes, /api/scorm/runtime/) installed under both SCORM names, before any of the
 * package's scripts look for it.
 */
export const SCORM_BRIDGE_MARKUP =
  '<script src="/api/scorm/runtime/cross-frame-api.js"></script><script>window.API_1484_11 = window.API = new CrossFrameAPI();</script>';

/** How far into an HTML file its <head> (or <html>, or doctype) is looked for; past it the bridge goes first. */
export const BRIDGE_SEARCH_BYTES = 64 * 1024;

/**
 * Where the bridge goes in an HTML document of which `prefix` is the start (read as latin1, so
 * that a character is a byte): just after the `<head>` start tag; failing that just after
 * `<html>`, or after the doctype; else at 0. Null while `prefix` may still be cut inside the tag
 * looked for (`complete` false and no tag found yet): read more first.
 */
export function bridgeOffset(prefix: string, complete: boolean): number | null {
  const head = headTagEnd(prefix);
  if (typeof head === 'number') return head;
  if (!complete && prefix.length < BRIDGE_SEARCH_BYTES) return null;
  const html = /<html(?:\s[^>]*)?>/i.exec(prefix);
  if (html) return html.index + html[0].length;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(prefix);
  return doctype ? doctype[0].length : 0;
}

/**
 * Just past the first `<head>` start tag, skipping comments (which may mention one); 'none' when
 * there is none in `text`. A scan, not one regular expression: a file without a <head> must not
 * cost more than one pass.
 */
function headTagEnd(text: string): number | 'none' {
  let i = 0;
  while (true) {
    i = text.indexOf('<', i);
    if (i === -1) return 'none';
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) return 'none';
      i = end + 3;
      continue;
    }
    if (/^<head[\s>/]/i.test(text.slice(i, i + 6))) {
      const end = text.indexOf('>', i);
      return end === -1 ? 'none' : end + 1;
    }
    i += 1;
  }
}

/** `html` with the bridge in place (for whole documents; the asset route streams through bridgeOffset). */
export function injectBridge(html: string): string {
  const at = bridgeOffset(html, true)!;
  return html.slice(0, at) + SCORM_BRIDGE_MARKUP + html.slice(at);
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  xhtml: 'application/xhtml+xml',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  xml: 'application/xml',
  xsd: 'application/xml',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  eot: 'application/vnd.ms-fontobject',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
  map: 'application/json',
};

/** The content type of a package file by its extension; bytes of unknown kinds are plain octets. */
export function assetContentType(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}

/** Whether an asset is an HTML document (it gets the bridge). */
export const isHtmlAsset = (path: string): boolean => assetContentType(path).startsWith('text/html') || assetContentType(path) === 'application/xhtml+xml';
