// Renders the app icons (web/public/icons) from the SVG below with the system Chromium.
// Run after changing the design: node web/scripts/generate-icons.mjs (needs playwright-core and
// CHROMIUM_PATH or /usr/bin/chromium). The PNGs are committed, so builds never need a browser.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

/** A gold coin with a "K" on the brand green; `maskable` fills the square (the platform crops it). */
function svg({ maskable }) {
  const background = maskable
    ? '<rect width="512" height="512" fill="url(#bg)"/>'
    : '<rect width="512" height="512" rx="112" fill="url(#bg)"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <title>Kamai</title>
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#0e7c5a"/><stop offset="1" stop-color="#17a676"/>
    </linearGradient>
  </defs>
  ${background}
  <circle cx="256" cy="256" r="150" fill="#f6c343"/>
  <circle cx="256" cy="256" r="126" fill="none" stroke="#e2a92b" stroke-width="10"/>
  <g fill="#0b6b4d" transform="translate(-16 0)">
    <rect x="190" y="170" width="46" height="172" rx="6"/>
    <polygon points="230,236 300,170 356,170 266,262 230,290"/>
    <polygon points="262,236 358,342 300,342 230,268"/>
  </g>
</svg>`;
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage();
const renders = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];
for (const { file, size, maskable } of renders) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg({ maskable })}`,
  );
  await page.screenshot({ path: join(out, file), omitBackground: true });
}
await browser.close();
await writeFile(join(out, 'favicon.svg'), `${svg({ maskable: false })}\n`);
console.log(`icons written to ${out}`);
