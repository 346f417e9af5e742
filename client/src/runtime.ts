/**
 * Whether the client runs in a web page. Secret keys belong on servers: a page's code and
 * network traffic are readable by whoever opens it.
 */
export function isBrowser(): boolean {
  return typeof window !== 'undefined' && typeof document !== 'undefined';
}
