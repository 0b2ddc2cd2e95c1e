import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { REQUEST_EXAMPLES } from '../../../shared/dialects/request-examples.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningServer } from '../../support/start-dev-server.js';
import { findChromium } from './find-chromium.js';

const KEY = 'sk-docs-page-0123456789abcdef';

let server: RunningServer;
let browser: Browser;
let page: Page;
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'rerank-docs-e2e-'));
  server = await startDevServer({ RERANK_API_KEYS: KEY });
  browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: true,
    // Root in a container has no user namespace sandbox; the page is our own, served from loopback.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1600 });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  // Kept only on request, for a person to look at; tests leave nothing behind otherwise.
  if (outDir && process.env['RERANK_KEEP_SCREENSHOTS'] !== '1') rmSync(outDir, { recursive: true, force: true });
});

describe('GET /docs (interactive API docs)', () => {
  it('renders Swagger UI from the service itself and sends a rerank request with the key typed into Authorize', async () => {
    const failedLoads: string[] = [];
    page.on('requestfailed', (request) => failedLoads.push(request.url()));
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });

    const response = await page.goto(`${server.url}/docs`, { waitUntil: 'networkidle0' });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.swagger-ui .info .title');
    expect(await page.$eval('.swagger-ui .info .title', (el) => el.textContent ?? '')).toContain('rerank-service');

    // Authorize with the bearer key, as a user would.
    await page.click('.btn.authorize');
    await page.waitForSelector('.modal-ux input');
    await page.type('.modal-ux input', KEY);
    await page.click('.modal-ux .auth-btn-wrapper .btn.authorize');
    await page.click('.modal-ux .btn-done');

    // Open POST /v1/rerank and send a request from the page.
    const opblock = '.opblock-post:has([data-path="/v1/rerank"])';
    await page.click(`${opblock} .opblock-summary`);
    await page.waitForSelector(`${opblock} textarea.body-param__text`);
    // The first click works: the pre-filled body is the published example, sent as it is.
    const prefilled = await page.$eval(`${opblock} textarea.body-param__text`, (el) => (el as unknown as { value: string }).value);
    expect(JSON.parse(prefilled)).toEqual(REQUEST_EXAMPLES.openai);
    await page.click(`${opblock} .btn.execute`);
    const row = `${opblock} .live-responses-table tbody tr.response`;
    await page.waitForSelector(`${row} .response-col_description pre`);

    const status = await page.$eval(`${row} .response-col_status`, (el) => el.textContent?.trim() ?? '');
    const shownBody = await page.$eval(`${row} .response-col_description pre`, (el) => el.textContent ?? '');
    const shot = join(outDir, 'docs-rerank.png');
    await (await page.$(opblock))?.screenshot({ path: shot });

    expect(status, `${status}: ${shownBody} (screenshot ${shot})`).toBe('200');
    const body = JSON.parse(shownBody) as { results: { index: number; relevance_score: number }[] };
    expect(body.results).toHaveLength(REQUEST_EXAMPLES.openai['top_n'] as number);
    expect(body.results.every((r) => [0, 1, 2].includes(r.index))).toBe(true);
    const scores = body.results.map((r) => r.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(statSync(shot).size).toBeGreaterThan(10_000);
    expect(failedLoads).toEqual([]);
    expect(cspViolations).toEqual([]);
  });

  it('serves only its own files: an unknown or traversing asset name is a 404 in the OpenAI envelope', async () => {
    for (const name of ['index.html', '..%2Fpackage.json', 'swagger-ui.css.map']) {
      const res = await fetch(`${server.url}/docs/${name}`);
      expect(res.status, name).toBe(404);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/^no docs file/);
    }
  });
});
