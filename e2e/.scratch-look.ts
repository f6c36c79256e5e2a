// scratch: not committed
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import { makeTone } from '../test/support/audio-fixtures.js';

const dir = '/tmp/ux-scratch';
await mkdir(path.join(dir, 'data'), { recursive: true });
for (const [n, f] of [['low tone.wav', 300], ['a rather long file name for the middle tone.flac', 700], ['high.ogg', 1500]] as const) await makeTone(path.join(dir, n), { seconds: 2, frequency: f });
const child = spawn(process.execPath, ['dist/main.js'], { cwd: '/work/wt/ux', env: { ...process.env, PORT: '41401', SOCKET_PORT: '41402', DATA_DIR: path.join(dir, 'data'), HOST: '127.0.0.1', NODE_ENV: '' }, stdio: 'inherit' });
await new Promise((r) => setTimeout(r, 2500));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 1200 } });
  await page.goto('http://127.0.0.1:41401/');
  await page.setInputFiles('#audio-merge-file-input', ['low tone.wav', 'a rather long file name for the middle tone.flac', 'high.ogg'].map((n) => path.join(dir, n)));
  await page.waitForSelector('.audio-merge-row >> nth=2', { timeout: 60000 });
  await page.locator('.audio-merge-root').screenshot({ path: path.join(dir, 'list.png') });
  await page.getByRole('button', { name: 'Remove high.ogg' }).click();
  await page.locator('.audio-merge-root').screenshot({ path: path.join(dir, 'removed.png') });
  await page.waitForTimeout(6000);
  await page.locator('.audio-merge-root').screenshot({ path: path.join(dir, 'after-undo-window.png') });
  await page.screenshot({ path: path.join(dir, 'page.png'), fullPage: true });
} finally {
  await browser.close();
  child.kill('SIGTERM');
}
