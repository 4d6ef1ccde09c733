// The browser test of `grail serve` (docs/serve.md): Debian's Chromium,
// driven by playwright-core, plays the opening of Tamoul in two seat pages
// and a designer page. Usage: node run.mjs GRAIL_BINARY [OUT_DIR]
//
// Checks: P1's page shows card backs for P0's slots; a click on a move in
// one page updates the other page (server-sent events, no reload); the
// designer page sees every card and undoes a move; no page logs an error;
// a screenshot of each page is taken and is not blank.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import assert from 'node:assert/strict';

const grail = process.argv[2] || 'target/release/grail';
const out = process.argv[3] || 'target/serve-browser';
mkdirSync(out, { recursive: true });
const TIMEOUT = 10000;

function startServer() {
  const child = spawn(grail, [
    'serve', 'rules/tamoul.rules', '--players', '2', '--seed', '3',
    '--port', '0', '--bind', '127.0.0.1', '--bot-delay', '200',
  ], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('no links from grail serve: ' + text)), 20000);
    child.stdout.on('data', (d) => {
      text += d;
      const links = {};
      for (const m of text.matchAll(/^\s+(P\d+|designer):\s+(\S+)/gm)) links[m[1]] = m[2];
      if (links.P0 && links.P1 && links.designer) {
        clearTimeout(timer);
        resolve({ child, links });
      }
    });
    child.on('exit', (code) => reject(new Error('grail serve exited with ' + code + ': ' + text)));
  });
}

const version = (page) => page.evaluate(() => Number(document.body.dataset.version ?? -1));
async function waitVersion(page, atLeast) {
  await page.waitForFunction((v) => Number(document.body.dataset.version ?? -1) >= v, atLeast,
    { timeout: TIMEOUT });
}

// A screenshot is blank when (almost) all its pixels are one colour.
async function notBlank(browser, png, name) {
  const page = await browser.newPage();
  const stats = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const counts = new Map();
    for (let i = 0; i < d.length; i += 4 * 7) {
      const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    const top = Math.max(...counts.values());
    return { colours: counts.size, share: top / (d.length / 28), w: c.width, h: c.height };
  }, png.toString('base64'));
  await page.close();
  assert.ok(stats.colours > 20 && stats.share < 0.97,
    `${name} screenshot looks blank: ${JSON.stringify(stats)}`);
  console.log(`  ${name}: ${stats.w}x${stats.h}, ${stats.colours} colours, top colour ${(stats.share * 100).toFixed(0)}%`);
}

const { child, links } = await startServer();
let browser;
try {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const errors = [];
  const open = async (url, viewport) => {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(url + ': ' + m.text()); });
    page.on('pageerror', (e) => errors.push(url + ': ' + e.message));
    await page.goto(url);
    await page.waitForSelector('.zone', { timeout: TIMEOUT });
    return page;
  };
  // P0 on a phone-sized screen, P1 and the designer on laptop screens
  const p0 = await open(links.P0, { width: 390, height: 844 });
  const p1 = await open(links.P1, { width: 1000, height: 800 });
  const designer = await open(links.designer, { width: 1100, height: 900 });
  for (const p of [p0, p1, designer]) {
    await p.waitForSelector('#live.ok', { timeout: TIMEOUT });
  }

  // P1 sees backs for all four of P0's slots, and two faces of its own
  const p0slots = p1.locator('[data-zone="P0.slots"] .card');
  assert.equal(await p0slots.count(), 4);
  assert.equal(await p1.locator('[data-zone="P0.slots"] .card.back').count(), 4);
  assert.equal(await p1.locator('[data-zone="P1.slots"] .card.face').count(), 2);
  assert.equal(await p1.locator('button.play').count(), 0, 'P1 has no move yet');
  // the designer sees every card
  assert.equal(await designer.locator('[data-zone="P0.slots"] .card.back').count(), 0);
  assert.equal(await designer.locator('[data-zone="P0.slots"] .card.face').count(), 4);
  assert.match(await p0.locator('#status').textContent(), /Your turn/);

  // the opening: whoever has moves clicks one; the other page follows
  const pages = [p0, p1];
  const labels = [];
  for (let step = 0; step < 6; step++) {
    const v = await version(p0);
    let mover = null;
    for (const p of pages) {
      if (await p.locator('button.play').count() > 0) mover = p;
    }
    if (!mover) break;
    const other = mover === p0 ? p1 : p0;
    const buttons = mover.locator('button.play');
    const texts = await buttons.allTextContents();
    // draw, keep the card in place of a slot one knows, let windows pass
    let pick = texts.findIndex((t) => /^pass$|^do not|draw from the pile|^keep .*slot 3/.test(t));
    if (pick < 0) pick = texts.findIndex((t) => !/^intercept/.test(t));
    if (pick < 0) pick = texts.length - 1;
    labels.push(texts[pick]);
    await buttons.nth(pick).click();
    await waitVersion(other, v + 1);
    await waitVersion(mover, v + 1);
    const log = await other.locator('#log li').allTextContents();
    assert.ok(log.length > 0, 'the other page shows the move in its log');
    console.log(`  step ${step + 1}: ${mover === p0 ? 'P0' : 'P1'} clicked "${texts[pick]}"; the other page is at version ${await version(other)}`);
  }
  assert.ok(labels.length >= 3, 'the opening was played: ' + labels.join(' / '));
  // after P0's first move (a draw), P1 sees P0's drawn card as a back
  assert.equal(await p1.locator('[data-zone="P0.slots"] .card.face').count(), 0,
    'P1 never sees the faces of P0 slots');

  // the designer undoes the last move, and both seats follow
  await designer.waitForFunction((n) => document.querySelectorAll('#log li').length === n,
    labels.length, { timeout: TIMEOUT });
  const before = await version(p1);
  await designer.click('#undo');
  await designer.waitForFunction((n) => document.querySelectorAll('#log li').length === n,
    labels.length - 1, { timeout: TIMEOUT });
  await waitVersion(p1, before + 1);
  await waitVersion(p0, before + 1);
  assert.match(await designer.locator('#output').textContent(), /undone: /);
  assert.equal(await p1.locator('#log li').count(), labels.length - 1);

  for (const [name, page] of [['P0', p0], ['P1', p1], ['designer', designer]]) {
    const png = await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
    await notBlank(browser, png, name);
  }
  assert.deepEqual(errors, [], 'the pages logged errors');
  console.log(`serve browser test: ok (${labels.length} moves, undo, 3 screenshots in ${out})`);
} finally {
  if (browser) await browser.close();
  child.kill();
}
