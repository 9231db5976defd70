/**
 * `npm test`: every test this project has, in the order CI runs them. Installs Debian's
 * Chromium when /usr/bin/chromium is missing (Playwright's own browser download does not work
 * offline), then: type-check, lint, formatting (Prettier), unit tests (Vitest), production build, end-to-end tests
 * (Playwright driving Chromium against `vite preview`). Stops at the first failure, exit 1.
 * The last line is the plain "N passed, N failed" summary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): { ok: boolean; out: string } {
  process.stdout.write(`\n=== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(r.stdout ?? '');
  return { ok: r.status === 0, out: r.stdout ?? '' };
}

function ensureChromium(): void {
  if (existsSync(chromium)) return;
  process.stdout.write(`Chromium not found at ${chromium}; installing Debian's chromium package…\n`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const steps: string[][] = [
    [...sudo, 'apt-get', 'update'],
    [...sudo, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '--no-install-recommends', 'chromium'],
  ];
  for (const s of steps) {
    const r = spawnSync(s[0], s.slice(1), { stdio: 'inherit' });
    if (r.status !== 0) {
      process.stderr.write(`failed: ${s.join(' ')}\n`);
      process.exit(1);
    }
  }
}

let passed = 0;
let failed = 0;
function count(out: string, re: RegExp): number {
  const m = out.match(re);
  return m ? Number(m[1]) : 0;
}

ensureChromium();
const stages: [string, string, string[], NodeJS.ProcessEnv?][] = [
  ['typecheck', 'npx', ['tsc', '-b']],
  ['lint', 'npx', ['oxlint', '--deny-warnings', 'src', 'e2e', 'e2e-bench']],
  // the formatter (.prettierrc.json; .prettierignore lists what stays as written): `npm run format` fixes it
  ['format', 'npx', ['prettier', '--check', '.']],
  ['unit', 'npx', ['vitest', 'run', '--reporter=default']],
  ['build', 'npx', ['vite', 'build']],
  ['e2e', 'npx', ['playwright', 'test', '--reporter=list'], { CHROMIUM_PATH: chromium, CI: process.env.CI ?? '1' }],
  // the browser attached to `npm run apiserver` (its own apiserver + preview servers)
  [
    'e2e-attach',
    'npx',
    ['playwright', 'test', '-c', 'playwright.attach.config.ts', '--reporter=list'],
    { CHROMIUM_PATH: chromium, CI: process.env.CI ?? '1' },
  ],
];
for (const [name, cmd, args, env] of stages) {
  const r = run(name, cmd, args, env);
  // strip ANSI colours before counting
  // eslint-disable-next-line no-control-regex
  const out = r.out.replace(/\x1b\[[0-9;]*m/g, '');
  if (name === 'unit') {
    passed += count(out, /Tests\s+(?:\d+ failed \| )?(\d+) passed/);
    failed += count(out, /Tests\s+(\d+) failed/);
  } else if (name.startsWith('e2e')) {
    passed += count(out, /(\d+) passed/);
    failed += count(out, /(\d+) failed/);
  } else {
    if (r.ok) passed++;
    else failed++;
  }
  if (!r.ok) {
    if (failed === 0) failed = 1;
    process.stdout.write(`\nstage "${name}" failed\n${passed} passed, ${failed} failed\n`);
    process.exit(1);
  }
}
process.stdout.write(`\nall stages passed\n${passed} passed, ${failed} failed\n`);
