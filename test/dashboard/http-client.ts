/**
 * A browser without JavaScript, for the dashboard's tests over plain HTTP: a cookie jar, forms
 * submitted as rendered (with some fields changed), redirects read by hand.
 */
import { expect } from 'vitest';
import { decodeEntities, formOf } from '../support/html-form.js';
import type { TestServer } from '../support/server.js';
import { origin } from './support.js';

/** The message a page shows after an action (the flash), or a refused sign-in's alert. */
export const flashOf = (page: string) =>
  decodeEntities(/<p class="flash [^"]*"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? '');

export class DashboardClient {
  private readonly jar = new Map<string, string>();

  /** `at`: the server it talks to. */
  constructor(
    cookie: string,
    private readonly at: () => TestServer,
  ) {
    this.keep([cookie]);
  }

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keep(setCookies: string[]) {
    for (const line of setCookies) {
      const [name = '', value = ''] = (line.split(';')[0] ?? '').split(/=(.*)/s);
      if (!name) continue;
      if (value && !/Max-Age=0\b/.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
  }

  async request(path: string, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookie };
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${origin(this.at())}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body?.toString(),
      redirect: 'manual',
    });
    this.keep(response.headers.getSetCookie());
    return response;
  }

  /** A page: its status and markup. */
  async open(path: string): Promise<{ status: number; html: string }> {
    const response = await this.request(path);
    return { status: response.status, html: await response.text() };
  }

  /** Where a redirect goes, opened. */
  async follow(response: Response) {
    expect(response.status).toBe(303);
    return this.open(response.headers.get('location') ?? '');
  }

  /** Submits the form of `page` that goes to `action`, with some fields changed, as a browser does. */
  submit(page: string, action: string, values: Record<string, string | string[]> = {}): Promise<Response> {
    const form = formOf(page, action);
    const body = new URLSearchParams();
    const changed = new Set<string>();
    const put = (name: string) => {
      const value = values[name] ?? [];
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
      changed.add(name);
    };
    for (const [name, value] of form.fields) {
      if (!(name in values)) body.append(name, value);
      else if (!changed.has(name)) put(name);
    }
    for (const name of Object.keys(values)) if (!changed.has(name)) put(name);
    return form.method === 'post'
      ? this.request(action, { method: 'POST', body })
      : this.request(`${action}?${body}`);
  }

  /** Posts fields with the session's CSRF token, read from a page (for forms a page does not show). */
  async post(action: string, values: Record<string, string> = {}): Promise<Response> {
    const { html } = await this.open('/dashboard/test');
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    return this.request(action, { method: 'POST', body: new URLSearchParams({ _csrf: token, ...values }) });
  }
}
