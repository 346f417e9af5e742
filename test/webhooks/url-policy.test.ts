import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  nonPublicAddressKind,
  resolveWebhookTarget,
  type WebhookUrlPolicy,
  webhookUrlPolicy,
} from '../../server/webhooks/url-policy.js';
import { tableResolver } from '../security/webhooks-support.js';

const resolver = tableResolver({
  'shop.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'internal.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'split.example.com': ['93.184.215.14', '192.168.1.10'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'ula.example.com': ['fd12:3456:789a::1'],
  'empty.example.com': [],
});

/** `public`: the default of both modes, minus live's https rule; `any`: the sandbox opt-in. */
const policies: Record<'public' | 'any', WebhookUrlPolicy> = {
  public: { requireHttps: false, allowPrivate: false },
  any: { requireHttps: false, allowPrivate: true },
};

async function reasonFor(url: string, mode: 'public' | 'any' = 'public'): Promise<string | null> {
  const check = await checkWebhookUrl(url, policies[mode], resolver);
  return check.ok ? null : check.reason;
}

describe('checkWebhookUrl', () => {
  describe('in both modes', () => {
    for (const mode of ['public', 'any'] as const) {
      it(`accepts a public https URL (${mode})`, async () => {
        expect(await checkWebhookUrl('https://shop.example.com/webhooks', policies[mode], resolver)).toEqual({
          ok: true,
        });
      });

      it(`refuses schemes other than http and https (${mode})`, async () => {
        for (const url of [
          'ftp://shop.example.com/',
          'file:///etc/passwd',
          'javascript:alert(1)',
          'ws://shop.example.com/',
        ]) {
          expect(await reasonFor(url, mode)).toMatch(/must use http or https/);
        }
      });

      it(`refuses credentials in the URL (${mode})`, async () => {
        expect(await reasonFor('https://user:pass@shop.example.com/', mode)).toMatch(/user name or password/);
        expect(await reasonFor('https://user@shop.example.com/', mode)).toMatch(/user name or password/);
      });

      it(`refuses something that is not an absolute URL (${mode})`, async () => {
        expect(await reasonFor('/webhooks', mode)).toMatch(/not a valid absolute URL/);
        expect(await reasonFor('https://', mode)).toMatch(/not a valid absolute URL/);
      });
    }
  });

  describe('with the sandbox opt-in (private hosts allowed)', () => {
    it('accepts loopback and private receivers, so integrators can test on their own machine', async () => {
      for (const url of [
        'http://localhost:3000/hook',
        'http://127.0.0.1:8080/',
        'http://10.0.0.5/',
        'http://[::1]/',
      ]) {
        expect(await checkWebhookUrl(url, policies.any, resolver)).toEqual({ ok: true });
      }
    });

    it('does not resolve the host at all', async () => {
      const resolve = tableResolver({});
      expect(await checkWebhookUrl('https://unknown.example.com/', policies.any, resolve)).toEqual({
        ok: true,
      });
      expect(resolve.calls).toEqual([]);
    });
  });

  describe('without the opt-in (both modes)', () => {
    it('refuses localhost, with or without a trailing dot, and its subdomains', async () => {
      for (const url of [
        'http://localhost/',
        'http://LOCALHOST:8080/',
        'http://localhost./',
        'http://app.localhost/',
      ]) {
        expect(await reasonFor(url)).toMatch(/must be public: .*localhost is this machine/);
      }
    });

    it.each([
      ['http://127.0.0.1/', 'loopback'],
      ['http://127.255.10.1/', 'loopback'],
      ['http://0.0.0.0/', 'unspecified'],
      ['http://0.1.2.3/', 'unspecified'],
      ['http://10.0.0.1/', 'private'],
      ['http://172.16.0.1/', 'private'],
      ['http://172.31.255.255/', 'private'],
      ['http://192.168.1.1/', 'private'],
      ['http://169.254.169.254/latest/meta-data', 'link-local'],
      ['http://100.64.0.1/', 'carrier-grade NAT'],
      ['http://100.127.255.255/', 'carrier-grade NAT'],
      ['http://[::1]/', 'loopback'],
      ['http://[::]/', 'unspecified'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://[febf:ffff::1]/', 'link-local'],
      ['http://[fc00::1]/', 'unique local'],
      ['http://[fd12:3456::1]/', 'unique local'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://[::ffff:10.0.0.1]/', 'private'],
      ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
      ['http://[64:ff9b::192.168.0.1]/', 'private'],
      ['http://[2002:7f00:1::]/', 'loopback'],
      ['http://224.0.0.1/', 'multicast'],
      ['http://255.255.255.255/', 'reserved'],
    ])('refuses the address literal in %s (%s)', async (url, kind) => {
      expect(await reasonFor(url)).toMatch(new RegExp(`must be public: .* is an? ${kind} address\\.$`));
    });

    it('refuses IPv4 shorthands that the URL parser turns into loopback addresses', async () => {
      for (const url of [
        'http://127.1/',
        'http://2130706433/',
        'http://0x7f.0.0.1/',
        'http://0177.0.0.1/',
        'http://0/',
      ]) {
        expect(await reasonFor(url)).toMatch(/must be public/);
      }
    });

    it.each([['http://[::ffff:7f00:1]/'], ['http://[0:0:0:0:0:ffff:127.0.0.1]/']])(
      'refuses IPv4-mapped IPv6 spellings of loopback (%s)',
      async (url) => {
        expect(await reasonFor(url)).toMatch(/loopback address/);
      },
    );

    it('accepts public address literals just outside the forbidden ranges', async () => {
      for (const url of [
        'http://172.15.255.255/',
        'http://172.32.0.1/',
        'http://100.63.255.255/',
        'http://100.128.0.1/',
        'http://169.253.255.255/',
        'http://11.0.0.1/',
        'http://1.1.1.1/',
        'http://[2606:4700:4700::1111]/',
        'http://[::ffff:8.8.8.8]/',
      ]) {
        expect(await checkWebhookUrl(url, policies.public, resolver), url).toEqual({ ok: true });
      }
    });

    it('accepts a host whose every address is public', async () => {
      expect(await checkWebhookUrl('https://shop.example.com/hooks', policies.public, resolver)).toEqual({
        ok: true,
      });
    });

    it.each([
      ['https://internal.example.com/', 'private'],
      ['https://metadata.example.com/', 'link-local'],
      ['https://mapped.example.com/', 'loopback'],
      ['https://ula.example.com/', 'unique local'],
    ])('refuses a host name that resolves to a non-public address (%s)', async (url, kind) => {
      const reason = await reasonFor(url);
      expect(reason).toMatch(new RegExp(`resolves to an? ${kind} address\\.$`));
    });

    it('refuses a host with one private address among public ones', async () => {
      expect(await reasonFor('https://split.example.com/')).toMatch(
        /split.example.com resolves to a private address/,
      );
    });

    it('does not reveal the internal address a host name resolves to', async () => {
      expect(await reasonFor('https://internal.example.com/')).not.toContain('10.1.2.3');
    });

    it('refuses a host that cannot be resolved or has no address', async () => {
      expect(await reasonFor('https://nowhere.example.com/')).toMatch(/could not be resolved/);
      expect(await reasonFor('https://empty.example.com/')).toMatch(/could not be resolved/);
    });

    it('resolves the host name without port, brackets or trailing dot', async () => {
      const resolve = tableResolver({ 'shop.example.com': ['93.184.215.14'] });
      expect(await checkWebhookUrl('https://Shop.Example.com.:8443/x', policies.public, resolve)).toEqual({
        ok: true,
      });
      expect(resolve.calls).toEqual(['shop.example.com']);
    });
  });
});

describe('webhookUrlPolicy', () => {
  it('live is public https whatever the opt-in; test is public unless opted in', async () => {
    expect(webhookUrlPolicy('live', true)).toEqual({ requireHttps: true, allowPrivate: false });
    expect(webhookUrlPolicy('test', false)).toMatchObject({ requireHttps: false, allowPrivate: false });
    expect(webhookUrlPolicy('test', true)).toMatchObject({ requireHttps: false, allowPrivate: true });
    expect(
      await checkWebhookUrl('http://shop.example.com/', webhookUrlPolicy('live', true), resolver),
    ).toEqual({
      ok: false,
      reason: 'Live webhook URLs must use https.',
    });
  });
});

describe('resolveWebhookTarget', () => {
  it('returns the one address it checked, resolving the name once', async () => {
    const resolve = tableResolver({ 'shop.example.com': ['93.184.215.14', '2606:2800:21f:cb07::1'] });
    expect(await resolveWebhookTarget('https://shop.example.com/x', policies.public, resolve)).toEqual({
      ok: true,
      address: '93.184.215.14',
    });
    expect(resolve.calls).toEqual(['shop.example.com']);
  });

  it('refuses a name that now resolves inside, even if it was public at registration', async () => {
    const table: Record<string, string[]> = { 'rebind.example.com': ['93.184.215.14'] };
    const resolve = tableResolver(table);
    expect(await checkWebhookUrl('https://rebind.example.com/', policies.public, resolve)).toEqual({
      ok: true,
    });
    table['rebind.example.com'] = ['127.0.0.1'];
    expect(await resolveWebhookTarget('https://rebind.example.com/', policies.public, resolve)).toMatchObject(
      {
        ok: false,
        reason: expect.stringMatching(/resolves to a loopback address/),
      },
    );
  });

  it('with the opt-in, connects literals as they are and names to their first address', async () => {
    const resolve = tableResolver({ 'receiver.test': ['127.0.0.1'] });
    expect(await resolveWebhookTarget('http://[::1]:8080/', policies.any, resolve)).toEqual({
      ok: true,
      address: '::1',
    });
    expect(await resolveWebhookTarget('http://receiver.test/', policies.any, resolve)).toEqual({
      ok: true,
      address: '127.0.0.1',
    });
  });
});

describe('nonPublicAddressKind', () => {
  it('classifies resolver answers, zone ids included', () => {
    expect(nonPublicAddressKind('fe80::1%eth0')).toBe('link-local');
    expect(nonPublicAddressKind('::FFFF:192.168.0.1')).toBe('private');
    expect(nonPublicAddressKind('8.8.8.8')).toBeNull();
    expect(nonPublicAddressKind('2001:4860:4860::8888')).toBeNull();
  });

  it('treats anything that is not an IP address as non-public, so surprises fail closed', () => {
    expect(nonPublicAddressKind('not-an-ip')).toBe('reserved');
    expect(nonPublicAddressKind('')).toBe('reserved');
  });
});
