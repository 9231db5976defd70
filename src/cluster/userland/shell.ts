/**
 * A small POSIX shell (busybox ash as images ship it), enough for what Kubernetes docs and
 * real manifests put in `command`/`args`: `;`, newlines, `&&`, `||`, `!`, `|`, redirections
 * (`>`, `>>`, `<`, `2>&1`, `2>/dev/null`), `$VAR`/`${VAR}`/`$?`, single and double quotes,
 * `while`/`until … do … done`, `if … then … else … fi`, `for x in …`, and the builtins and
 * busybox applets sleep, exit, true, false, :, echo, printf, touch, rm, cat, mkdir, test/[,
 * date, env, printenv, hostname, export, cd, trap, wait, ls, grep, wc, head, sh -c.
 *
 * Execution is a generator that yields each sleep (simulated ms; Infinity = forever) so the
 * runtime can run it on the simulated clock. Perl one-liners run and exit (perl.ts: the docs'
 * `perl -Mbignum=bpi -wle "print bpi(2000)"`). A command it does not know (an app binary,
 * python, a Perl program beyond one-liners) makes the process *assumed*: it keeps running
 * (serving its ports) forever.
 * Error texts are busybox's (`cat: can't open '/tmp/x': No such file or directory`).
 */
import { ContainerFS, normalizePath } from './filesystem';

import { perlOneLiner } from './perl';
import { parse, type Node, type Word } from './shell-parse';

export { parse };

/** What a running shell needs from its container. */
export interface ShellContext {
  fs: ContainerFS;
  vars: Record<string, string>;
  hostname: string;
  /** simulated now, ms since the epoch (for `date`) */
  now: () => number;
  /** stdout/stderr of the process (the container log) */
  write: (text: string) => void;
  /** set when the script ran a command we do not model: it then runs forever */
  assumed?: boolean;
  /** set when the script installs a SIGTERM trap */
  trapsTerm?: boolean;
}

/** A sleep the process is in: ms (Infinity = forever) and whether it is inside a loop. */
export interface Sleep {
  ms: number;
  inLoop: boolean;
}

class Exit {
  constructor(readonly code: number) {}
}

interface IO {
  out: (s: string) => void;
  err: (s: string) => void;
  stdin: string;
}

const BUSYBOX_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const BUSYBOX_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** busybox `date` default format: "Thu Jan  1 00:00:00 UTC 2026". */
export function busyboxDate(ms: number): string {
  const d = new Date(ms);
  const p2 = (n: number) => String(n).padStart(2, '0');
  return `${BUSYBOX_DAYS[d.getUTCDay()]} ${BUSYBOX_MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`;
}

function sleepMs(args: string[]): number | null {
  if (!args.length) return null;
  let total = 0;
  for (const a of args) {
    if (a === 'infinity' || a === 'inf') return Infinity;
    const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(a);
    if (!m) return null;
    total += Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]] * 1000;
  }
  return Math.round(total);
}

/** The shell: one per process (container main process or an exec). */
export class Shell {
  status = 0;
  private loopDepth = 0;
  cwd = '/';

  constructor(readonly ctx: ShellContext) {}

  private expand(w: Word): string {
    let s = '';
    for (const part of w) {
      if ('lit' in part) s += part.lit;
      else if (part.v === '?') s += String(this.status);
      else if (part.v === '$') s += '1';
      else if (part.v === '#') s += '0';
      else s += this.ctx.vars[part.v] ?? '';
    }
    return s;
  }

  private expandWords(ws: Word[]): string[] {
    const out: string[] = [];
    for (const w of ws) {
      const s = this.expand(w);
      // an unquoted expansion that is empty disappears; otherwise no field splitting
      if (s === '' && w.length > 0 && w.every((p) => 'v' in p && !p.quoted)) continue;
      if (w.length === 1 && 'v' in w[0] && !w[0].quoted) out.push(...s.split(/\s+/).filter(Boolean));
      else out.push(s);
    }
    return out;
  }

  /** Runs a tree; yields sleeps, returns the exit status. Throws Exit on `exit`. */
  *run(n: Node, io: IO): Generator<Sleep, number> {
    switch (n.t) {
      case 'seq':
        for (const c of n.list) yield* this.run(c, io);
        return this.status;
      case 'and':
        if ((yield* this.run(n.a, io)) === 0) yield* this.run(n.b, io);
        return this.status;
      case 'or':
        if ((yield* this.run(n.a, io)) !== 0) yield* this.run(n.b, io);
        return this.status;
      case 'not':
        this.status = (yield* this.run(n.a, io)) === 0 ? 1 : 0;
        return this.status;
      case 'pipe': {
        let stdin = io.stdin;
        for (let i = 0; i < n.list.length; i++) {
          let buf = '';
          const last = i === n.list.length - 1;
          yield* this.run(n.list[i], {
            out: last
              ? io.out
              : (s) => {
                  buf += s;
                },
            err: io.err,
            stdin,
          });
          stdin = buf;
        }
        return this.status;
      }
      case 'loop': {
        this.loopDepth++;
        try {
          for (let i = 0; ; i++) {
            const c = yield* this.run(n.cond, io);
            if ((c === 0) === n.until) break;
            const before = this.ctx.assumed;
            yield* this.run(n.body, io);
            if (this.ctx.assumed && !before) return this.status;
            // a loop that never sleeps would spin a real CPU forever; treat it as running forever
            if (i > 10_000) yield { ms: Infinity, inLoop: true };
          }
        } finally {
          this.loopDepth--;
        }
        this.status = 0;
        return 0;
      }
      case 'if':
        if ((yield* this.run(n.cond, io)) === 0) return yield* this.run(n.thenPart, io);
        if (n.else) return yield* this.run(n.else, io);
        this.status = 0;
        return 0;
      case 'for': {
        this.loopDepth++;
        try {
          for (const item of this.expandWords(n.items)) {
            this.ctx.vars[n.v] = item;
            yield* this.run(n.body, io);
          }
        } finally {
          this.loopDepth--;
        }
        return this.status;
      }
      case 'cmd':
        return yield* this.simple(n, io);
    }
  }

  private *simple(n: Extract<Node, { t: 'cmd' }>, io: IO): Generator<Sleep, number> {
    const argv = this.expandWords(n.words);
    let out = io.out;
    let err = io.err;
    let stdin = io.stdin;
    const fs = this.ctx.fs;
    for (const r of n.redirs) {
      const target = this.expand(r.target);
      if (r.op === '>&') {
        if (r.fd === 2 && target === '1') err = out;
        else if (r.fd === 1 && target === '2') out = err;
        continue;
      }
      const path = normalizePath(target, this.cwd);
      if (r.op === '<') {
        const c = fs.read(path);
        if (c === undefined) {
          io.err(`sh: can't open '${target}': No such file or directory\n`);
          return (this.status = 1);
        }
        stdin = c;
        continue;
      }
      const bad = fs.write(path, '', r.op === '>>' || true);
      if (bad) {
        io.err(
          `sh: can't create ${target}: ${bad === 'EISDIR' ? 'Is a directory' : bad === 'EROFS' ? 'Read-only file system' : 'nonexistent directory'}\n`,
        );
        return (this.status = 1);
      }
      if (r.op === '>') fs.write(path, '');
      const sink = (s: string) => void fs.write(path, s, true);
      if (r.fd === 2) err = sink;
      else out = sink;
    }
    while (argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[0])) {
      const a = argv.shift()!;
      this.ctx.vars[a.slice(0, a.indexOf('='))] = a.slice(a.indexOf('=') + 1);
    }
    if (!argv.length) return (this.status = 0);
    const [cmd, ...args] = argv;
    const name = cmd.slice(cmd.lastIndexOf('/') + 1);
    this.status = yield* this.builtin(name, args, { out, err, stdin });
    return this.status;
  }

  private *builtin(name: string, args: string[], io: IO): Generator<Sleep, number> {
    const fs = this.ctx.fs;
    const path = (a: string) => normalizePath(a, this.cwd);
    switch (name) {
      case 'sleep': {
        const ms = sleepMs(args);
        if (ms === null) {
          io.err(`sleep: invalid number '${args[0] ?? ''}'\n`);
          return 1;
        }
        if (ms > 0) yield { ms, inLoop: this.loopDepth > 0 };
        return 0;
      }
      case 'exit':
        throw new Exit(args.length ? ((Number.parseInt(args[0], 10) % 256) + 256) % 256 : this.status);
      case 'true':
      case ':':
        return 0;
      case 'false':
        return 1;
      case 'echo': {
        let nl = true;
        let a = args;
        while (a[0] === '-n' || a[0] === '-e' || a[0] === '-ne' || a[0] === '-en') {
          if (a[0].includes('n')) nl = false;
          a = a.slice(1);
        }
        io.out(a.join(' ') + (nl ? '\n' : ''));
        return 0;
      }
      case 'printf': {
        const [fmt = '', ...rest] = args;
        let i = 0;
        io.out(fmt.replace(/%[sd%]|\\n|\\t/g, (m) => (m === '\\n' ? '\n' : m === '\\t' ? '\t' : m === '%%' ? '%' : (rest[i++] ?? ''))));
        return 0;
      }
      case 'touch':
        for (const a of args.filter((x) => !x.startsWith('-'))) {
          if (fs.isFile(path(a)) || fs.isDir(path(a))) continue;
          if (fs.write(path(a), '')) {
            io.err(`touch: ${a}: No such file or directory\n`);
            return 1;
          }
        }
        return 0;
      case 'rm': {
        const flags = args.filter((x) => x.startsWith('-')).join('');
        let st = 0;
        for (const a of args.filter((x) => !x.startsWith('-'))) {
          const e = fs.remove(path(a), /[rR]/.test(flags));
          if (e === 'ENOENT' && !flags.includes('f')) {
            io.err(`rm: can't remove '${a}': No such file or directory\n`);
            st = 1;
          } else if (e === 'EISDIR') {
            io.err(`rm: '${a}' is a directory\n`);
            st = 1;
          } else if (e === 'EROFS') {
            io.err(`rm: can't remove '${a}': Read-only file system\n`);
            st = 1;
          }
        }
        return st;
      }
      case 'cat': {
        const files = args.filter((x) => x !== '-');
        if (!files.length) {
          io.out(io.stdin);
          return 0;
        }
        let st = 0;
        for (const a of files) {
          const c = fs.read(path(a));
          if (c === undefined) {
            io.err(fs.isDir(path(a)) ? `cat: read error: Is a directory\n` : `cat: can't open '${a}': No such file or directory\n`);
            st = 1;
          } else io.out(c);
        }
        return st;
      }
      case 'mkdir': {
        const parents = args.some((x) => /^-[a-z]*p/.test(x));
        let st = 0;
        for (const a of args.filter((x) => !x.startsWith('-'))) {
          const e = fs.mkdir(path(a), parents);
          if (e) {
            io.err(
              `mkdir: can't create directory '${a}': ${e === 'EEXIST' ? 'File exists' : e === 'EROFS' ? 'Read-only file system' : 'No such file or directory'}\n`,
            );
            st = 1;
          }
        }
        return st;
      }
      case 'ls': {
        const targets = args.filter((x) => !x.startsWith('-'));
        for (const a of targets.length ? targets : [this.cwd]) {
          if (fs.isFile(path(a))) io.out(a + '\n');
          else if (fs.isDir(path(a))) {
            const l = fs.list(path(a));
            if (l.length) io.out(l.join('\n') + '\n');
          } else {
            io.err(`ls: ${a}: No such file or directory\n`);
            return 1;
          }
        }
        return 0;
      }
      case 'test':
        return this.test(args);
      case '[':
        if (args[args.length - 1] !== ']') {
          io.err('sh: missing ]\n');
          return 2;
        }
        return this.test(args.slice(0, -1));
      case 'date':
        io.out(busyboxDate(this.ctx.now()) + '\n');
        return 0;
      case 'hostname':
        io.out(this.ctx.hostname + '\n');
        return 0;
      case 'env':
      case 'printenv': {
        if (name === 'printenv' && args.length) {
          const v = this.ctx.vars[args[0]];
          if (v === undefined) return 1;
          io.out(v + '\n');
          return 0;
        }
        io.out(
          Object.entries(this.ctx.vars)
            .map(([k, v]) => `${k}=${v}\n`)
            .join(''),
        );
        return 0;
      }
      case 'export':
      case 'set':
      case 'local':
      case 'readonly':
        for (const a of args) {
          const i = a.indexOf('=');
          if (i > 0) this.ctx.vars[a.slice(0, i)] = a.slice(i + 1);
        }
        return 0;
      case 'cd': {
        const d = path(args[0] ?? '/root');
        if (!fs.isDir(d)) {
          io.err(`sh: cd: can't cd to ${args[0]}: No such file or directory\n`);
          return 2;
        }
        this.cwd = d;
        return 0;
      }
      case 'trap':
        if (args.slice(1).some((s) => /^(SIG)?TERM$|^15$/.test(s)) && args[0] !== '-' && args[0] !== '') this.ctx.trapsTerm = true;
        return 0;
      case 'wait':
      case 'sync':
      case 'ulimit':
      case 'umask':
        return 0;
      case 'grep': {
        const flags = args.filter((x) => x.startsWith('-')).join('');
        const [pat, ...files] = args.filter((x) => !x.startsWith('-'));
        const text = files.length ? files.map((f) => fs.read(path(f)) ?? '').join('') : io.stdin;
        const lines = text.split('\n').filter((l, i, a) => (i < a.length - 1 || l) && l.includes(pat ?? '') !== flags.includes('v'));
        if (!flags.includes('q') && lines.length) io.out(lines.join('\n') + '\n');
        return lines.length ? 0 : 1;
      }
      case 'wc': {
        const text =
          args
            .filter((x) => !x.startsWith('-'))
            .map((f) => fs.read(path(f)) ?? '')
            .join('') || io.stdin;
        io.out(String(text.split('\n').length - 1) + '\n');
        return 0;
      }
      case 'sh':
      case 'ash':
      case 'bash': {
        if (args[0] === '-c' && args[1] !== undefined) {
          let tree: Node;
          try {
            tree = parse(args[1]);
          } catch {
            this.ctx.assumed = true;
            yield { ms: Infinity, inLoop: false };
            return 0;
          }
          try {
            return yield* this.run(tree, io);
          } catch (e) {
            if (e instanceof Exit) return e.code;
            throw e;
          }
        }
        return 0;
      }
      default: {
        // a Perl one-liner (perl.ts) runs and exits, e.g. the docs' pi Job
        const perl = /^perl(5[\d.]*)?$/.test(name) ? perlOneLiner(args) : null;
        if (perl) {
          for (const s of perl) {
            if ('out' in s) io.out(s.out);
            else if ('err' in s) io.err(s.err);
            else if ('sleepMs' in s) yield { ms: s.sleepMs, inLoop: this.loopDepth > 0 };
            else return s.exit;
          }
          return 0;
        }
        // an application we do not model: it keeps running, serving its ports (assumed)
        this.ctx.assumed = true;
        yield { ms: Infinity, inLoop: false };
        return 0;
      }
    }
  }

  private test(a: string[]): number {
    const fs = this.ctx.fs;
    const p = (x: string) => normalizePath(x, this.cwd);
    if (a[0] === '!') return this.test(a.slice(1)) === 0 ? 1 : 0;
    if (a.length === 0) return 1;
    if (a.length === 1) return a[0] !== '' ? 0 : 1;
    if (a.length === 2) {
      const [op, x] = a;
      const r: Record<string, () => boolean> = {
        '-f': () => fs.isFile(p(x)),
        '-e': () => fs.exists(p(x)),
        '-d': () => fs.isDir(p(x)),
        '-s': () => (fs.read(p(x)) ?? '').length > 0,
        '-r': () => fs.exists(p(x)),
        '-w': () => fs.exists(p(x)),
        '-x': () => fs.exists(p(x)),
        '-z': () => x === '',
        '-n': () => x !== '',
      };
      return r[op] ? (r[op]() ? 0 : 1) : 2;
    }
    const [x, op, y] = a;
    const n = (s: string) => Number.parseInt(s, 10);
    const r: Record<string, () => boolean> = {
      '=': () => x === y,
      '==': () => x === y,
      '!=': () => x !== y,
      '-eq': () => n(x) === n(y),
      '-ne': () => n(x) !== n(y),
      '-lt': () => n(x) < n(y),
      '-gt': () => n(x) > n(y),
      '-le': () => n(x) <= n(y),
      '-ge': () => n(x) >= n(y),
    };
    return r[op] ? (r[op]() ? 0 : 1) : 2;
  }

  /** Runs argv as a process (PID 1 of a container, or an exec). Returns the exit status. */
  *exec(argv: string[], io: IO): Generator<Sleep, number> {
    try {
      const [cmd, ...args] = argv;
      return yield* this.builtin(cmd.slice(cmd.lastIndexOf('/') + 1), args, io);
    } catch (e) {
      if (e instanceof Exit) return e.code;
      throw e;
    }
  }
}
