import { describe, expect, it } from 'vitest';
import { createApi, createRun, emulatorPerTest } from './helpers.js';

const ctx = emulatorPerTest();

describe('GET /sessions/:id', () => {
  it('serves an escaped HTML page with the run, its state, prompt, follow-ups and PR link', async () => {
    const id = await createRun(ctx.api, { prompt: '<script>alert("x")</script> & fix <b>it</b>' });
    await ctx.api('POST', `/agent/runs/${id}/followups`, {
      message: 'also <img src=x onerror=alert(1)>',
    });
    ctx.clock.advance(60_000);
    const link = (await ctx.api('GET', `/agent/runs/${id}`)).body.session_link as string;

    const res = await fetch(link); // no key: a browser opens it
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; fix &lt;b&gt;it&lt;/b&gt;',
    );
    expect(html).toContain('also &lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('<strong id="state">SUCCEEDED</strong>');
    expect(html).toMatch(/<a href="https:\/\/github\.com\/example\/repo\/pull\/\d+">/);
    expect(html).toContain(id);
  });

  it('answers 404 for an unknown session and is not counted as a contract request', async () => {
    const res = await createApi(ctx.emu.url, undefined)('GET', '/sessions/nope');
    expect(res.status).toBe(404);
    expect(ctx.emu.requests.total()).toBe(0);
  });
});
