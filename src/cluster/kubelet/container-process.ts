/**
 * What a container's main process does, interpreted from the manifest (image, command, args),
 * as DESIGN.md's "container behaviour interpreted from what the manifest says".
 *
 * For now: a tiny POSIX-shell subset — `sleep N`, `exit N`, `echo …`, `true`, `false`, `:`,
 * joined by `;`, newlines, `&&` and `||` — run as `sh -c "…"` (or a bare `sleep N`), which is
 * enough for exit codes to drive restartPolicy (Always / OnFailure / Never) and
 * CrashLoopBackOff. Anything else (an app binary, a perl one-liner, a `while` loop) is a
 * long-running process that is *assumed* to keep serving (the UI says so). A later issue grows
 * this into a fuller interpreter (files, probes).
 *
 * Real-world details kept: `sh`/`sleep` as PID 1 install no SIGTERM handler, so the kernel
 * ignores SIGTERM and the container only dies at the end of the grace period (exit 137) —
 * `kubectl delete pod` of a busybox sleeper takes 30 s. A busybox / alpine / ubuntu / debian
 * container without command runs its default `sh` (or `bash`) with no stdin and exits 0 at once.
 *
 * Durations are simulated ms.
 */

/** The interpreted behaviour of one container run. */
export type ProcessPlan =
  | { kind: 'exits'; afterMs: number; exitCode: number; stdout: string[]; ignoresSigterm: boolean }
  | { kind: 'runs'; stdout: string[]; ignoresSigterm: boolean; assumed: boolean };

/** Images whose default command is an interactive shell (exits at once without a TTY). */
const SHELL_IMAGES = /(^|\/)(busybox|alpine|ubuntu|debian)(:|@|$)/;

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash']);

function base(p: string): string {
  const i = p.lastIndexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

/**
 * Interprets a container spec. `command` replaces the image ENTRYPOINT, `args` its CMD; for
 * the shell images handled here the entrypoint is empty, so argv = command ++ args.
 */
export function planProcess(c: { image?: string; command?: string[]; args?: string[] }): ProcessPlan {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  const assumed: ProcessPlan = { kind: 'runs', stdout: [], ignoresSigterm: false, assumed: true };
  if (argv.length === 0) {
    if (c.image && SHELL_IMAGES.test(c.image)) return { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true };
    return assumed;
  }
  const prog = base(argv[0]);
  if (SHELLS.has(prog)) {
    if (argv[1] === '-c' && argv.length >= 3) return runScript(argv[2]) ?? assumed;
    if (argv.length === 1) return { kind: 'exits', afterMs: 0, exitCode: 0, stdout: [], ignoresSigterm: true };
    return assumed;
  }
  // a bare simple command, e.g. ["sleep", "3600"]
  return runScript(argv.map(quoteWord).join(' ')) ?? assumed;
}

function quoteWord(w: string): string {
  return /^[\w./:=-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

interface Cmd {
  /** how it joins the previous command */
  op: ';' | '&&' | '||';
  words: string[];
}

/** Splits a script into commands, honouring quotes. Null when it uses syntax we do not model. */
export function parseScript(script: string): Cmd[] | null {
  const cmds: Cmd[] = [];
  let words: string[] = [];
  let cur = '';
  let inWord = false;
  let op: Cmd['op'] = ';';
  const endWord = () => {
    if (inWord) words.push(cur);
    cur = '';
    inWord = false;
  };
  const endCmd = (next: Cmd['op']) => {
    endWord();
    if (words.length) cmds.push({ op, words });
    else if (next !== ';') return false;
    words = [];
    op = next;
    return true;
  };
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    if (ch === "'") {
      const j = script.indexOf("'", i + 1);
      if (j < 0) return null;
      cur += script.slice(i + 1, j);
      inWord = true;
      i = j;
    } else if (ch === '"') {
      let j = i + 1;
      let s = '';
      for (; j < script.length && script[j] !== '"'; j++) {
        if (script[j] === '\\' && j + 1 < script.length) s += script[++j];
        else if (script[j] === '$' || script[j] === '`') return null;
        else s += script[j];
      }
      if (j >= script.length) return null;
      cur += s;
      inWord = true;
      i = j;
    } else if (ch === ' ' || ch === '\t') endWord();
    else if (ch === ';' || ch === '\n') {
      if (!endCmd(';')) return null;
    } else if (ch === '&' && script[i + 1] === '&') {
      if (!endCmd('&&')) return null;
      i++;
    } else if (ch === '|' && script[i + 1] === '|') {
      if (!endCmd('||')) return null;
      i++;
    } else if ('|&<>()$`{}*?[]#\\'.includes(ch)) return null;
    else {
      cur += ch;
      inWord = true;
    }
  }
  endCmd(';');
  return cmds;
}

/** Runs a parsed script symbolically. Null when a command is not understood. */
export function runScript(script: string): ProcessPlan | null {
  const cmds = parseScript(script);
  if (!cmds) return null;
  let t = 0;
  let status = 0;
  const stdout: string[] = [];
  for (const c of cmds) {
    if (c.op === '&&' && status !== 0) continue;
    if (c.op === '||' && status === 0) continue;
    const [name, ...rest] = c.words;
    switch (name) {
      case 'sleep': {
        if (rest[0] === 'infinity') return { kind: 'runs', stdout, ignoresSigterm: true, assumed: false };
        const n = Number(rest[0]);
        if (rest.length !== 1 || !Number.isFinite(n) || n < 0) return null;
        t += Math.round(n * 1000);
        status = 0;
        break;
      }
      case 'exit': {
        const n = rest.length ? Number(rest[0]) : status;
        if (!Number.isInteger(n)) return null;
        return { kind: 'exits', afterMs: t, exitCode: ((n % 256) + 256) % 256, stdout, ignoresSigterm: true };
      }
      case 'echo':
        stdout.push(rest.join(' '));
        status = 0;
        break;
      case 'true':
      case ':':
        status = 0;
        break;
      case 'false':
        status = 1;
        break;
      default:
        return null;
    }
  }
  return { kind: 'exits', afterMs: t, exitCode: status, stdout, ignoresSigterm: true };
}
