#!/usr/bin/env python3
"""Regenerates the goldens: runs the oracle `kubectl kustomize <dir>` (kubectl v1.32, kustomize
v5.5) in every case folder that has an expected.yaml (or is listed in CASES) and writes
expected.yaml (stdout) and expected.stderr. Two normalizations, so the goldens do not depend on
the machine: the absolute path of this folder becomes <ROOT>, and an error the oracle logged
through klog (`E1130 ... run.go:72] "command failed" err="..."`) is written the way kubectl's
cmdutil.CheckErr prints it: `error: <message>`.

usage: python3 regen.py [case ...]
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.abspath(__file__))
CASES = [
    'helloworld/base', 'helloworld/overlays/staging', 'helloworld/overlays/production',
    'generators/base', 'generators/overlay', 'deprecated', 'labels', 'emitter',
    'err-missing-resource', 'err-unknown-field', 'err-bad-patch-target', 'err-nested/overlay',
    'peekcart-dev', 'peekcart-prod',
]
KLOG = re.compile(r'^E\d{4} [0-9:.]+ +\d+ [^\]]+\] "command failed" err=(".*")$')

def regen(case):
    d = os.path.join(ROOT, case)
    p = subprocess.run(['/usr/bin/kubectl', 'kustomize', d], capture_output=True, text=True)
    err = []
    for line in p.stderr.splitlines():
        m = KLOG.match(line)
        err.append('error: ' + json.loads(m.group(1)) if m else line)
    stderr = ''.join(l + '\n' for l in err).replace(ROOT, '<ROOT>')
    open(os.path.join(d, 'expected.yaml'), 'w').write(p.stdout)
    open(os.path.join(d, 'expected.stderr'), 'w').write(stderr)
    print(f'{case}: exit {p.returncode}, {len(p.stdout)} bytes stdout, {len(stderr)} bytes stderr')

for c in sys.argv[1:] or CASES:
    if os.path.isdir(os.path.join(ROOT, c)):
        regen(c)
