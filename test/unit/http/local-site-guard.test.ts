import { describe, expect, it } from 'vitest';
import { LocalSiteGuard } from '../../../shared/http/local-site-guard.js';

const headers = (h: Record<string, string>) => (name: string) => h[name];
const refused = (guard: LocalSiteGuard, method: string, h: Record<string, string>) => {
  try {
    guard.check(method, headers(h));
    return false;
  } catch {
    return true;
  }
};

describe('LocalSiteGuard: the Host names HOST implies, and no other site', () => {
  it('on a loopback HOST takes the loopback names only, whatever the port', () => {
    const guard = new LocalSiteGuard({ host: '127.0.0.1', allowedHosts: [], machineName: 'box' });
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST', '[::1]:3000']) expect(refused(guard, 'GET', { host })).toBe(false);
    for (const host of ['box:3000', '192.168.1.5:3000', 'rebind.attacker.example:3000', ''])
      expect(refused(guard, 'GET', { host })).toBe(true);
  });

  it('on a wildcard HOST also takes any IP literal and the machine name; `*` takes any name', () => {
    const wildcard = new LocalSiteGuard({ host: '0.0.0.0', allowedHosts: [], machineName: 'box' });
    for (const host of ['192.168.1.5:3000', '[fe80::1]:3000', 'box:3000']) expect(refused(wildcard, 'GET', { host })).toBe(false);
    expect(refused(wildcard, 'GET', { host: 'rebind.attacker.example' })).toBe(true);
    expect(refused(new LocalSiteGuard({ host: '::', allowedHosts: [] }), 'GET', { host: '10.0.0.2' })).toBe(false);
    expect(refused(new LocalSiteGuard({ host: '127.0.0.1', allowedHosts: ['*'] }), 'GET', { host: 'anything.example' })).toBe(false);
  });

  it('refuses writes from another site, never reads by navigation', () => {
    const guard = new LocalSiteGuard({ host: '127.0.0.1', allowedHosts: ['rerank.internal'] });
    const host = 'localhost:3000';
    expect(refused(guard, 'POST', { host, 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(refused(guard, 'DELETE', { host, origin: 'https://attacker.example' })).toBe(true);
    expect(refused(guard, 'POST', { host, origin: 'null' })).toBe(true);
    expect(
      refused(guard, 'POST', { host: 'rerank.internal:8080', origin: 'http://rerank.internal:8080', 'sec-fetch-site': 'same-site' }),
    ).toBe(false);
    expect(refused(guard, 'POST', { host, 'sec-fetch-site': 'none' })).toBe(false);
    expect(refused(guard, 'GET', { host, 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' })).toBe(false);
  });

  it("compares an Origin's scheme, host and port with the request's own Host: a page on another local port is another site", () => {
    const guard = new LocalSiteGuard({ host: '127.0.0.1', allowedHosts: [] });
    expect(refused(guard, 'POST', { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' })).toBe(false);
    expect(refused(guard, 'POST', { host: 'localhost', origin: 'http://localhost:80' })).toBe(false);
    expect(refused(guard, 'POST', { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:8080' })).toBe(true);
    expect(refused(guard, 'POST', { host: 'localhost:3000', origin: 'http://127.0.0.1:3000' })).toBe(true);
    expect(refused(guard, 'POST', { host: '127.0.0.1:3000', origin: 'https://127.0.0.1:3000' })).toBe(true);
    // `/docs` through a port forward (ssh -L 8080:127.0.0.1:3000): the browser's Host and Origin name the forwarded port.
    expect(refused(guard, 'POST', { host: 'localhost:8080', origin: 'http://localhost:8080' })).toBe(false);
  });
});
