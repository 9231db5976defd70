import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { perlOneLiner, type PerlStep } from './perl';
import { bpi, bpiComputeMs } from './pi-digits';

const golden = (n: number) => readFileSync(new URL(`./testdata/perl-bpi-${n}.golden.txt`, import.meta.url), 'utf8').trimEnd();

describe('bpi (pi-digits.ts) against Perl 5.36 Math::BigFloat->bpi(N)', () => {
  // goldens: perl -MMath::BigFloat -le 'print Math::BigFloat->bpi(N)' (bpi(N) of -Mbignum=bpi prints the same)
  const cases: { name: string; n: number; want: string }[] = [
    { name: 'one digit', n: 1, want: '3' },
    { name: 'two digits', n: 2, want: '3.1' },
    { name: 'rounds up (3.14159 → 3.1416)', n: 5, want: '3.1416' },
    { name: 'ten digits rounded', n: 10, want: '3.141592654' },
    { name: 'default precision 40 (bpi(0))', n: 0, want: '3.141592653589793238462643383279502884197' },
    { name: 'the docs pi Job: 2000 digits', n: 2000, want: golden(2000) },
    { name: '5000 digits', n: 5000, want: golden(5000) },
  ];
  test.each(cases)('$name', ({ n, want }) => {
    expect(bpi(n)).toBe(want);
  });

  test('2000 digits: 3.14159… to …', () => {
    const s = bpi(2000);
    expect(s.length).toBe(2001);
    expect(s.slice(0, 12)).toBe('3.1415926535');
  });

  test.each([
    { n: 2000, ms: 2000 },
    { n: 5000, ms: 12_500 },
    { n: 10, ms: 10 },
  ])('compute time of bpi($n) is $ms ms', ({ n, ms }) => {
    expect(bpiComputeMs(n)).toBe(ms);
  });
});

describe('perlOneLiner (perl.ts)', () => {
  const cases: { name: string; args: string[]; want: PerlStep[] | null }[] = [
    {
      name: 'docs pi Job, short',
      args: ['-Mbignum=bpi', '-wle', 'print bpi(5)'],
      want: [{ sleepMs: 10 }, { out: '3.1416\n' }, { exit: 0 }],
    },
    { name: 'without -l no newline', args: ['-Mbignum=bpi', '-e', 'print bpi(3)'], want: [{ sleepMs: 10 }, { out: '3.14' }, { exit: 0 }] },
    {
      name: 'bpi not imported',
      args: ['-wle', 'print bpi(3)'],
      want: [{ err: 'Undefined subroutine &main::bpi called at -e line 1.\n' }, { exit: 255 }],
    },
    {
      name: 'Math::BigFloat->bpi',
      args: ['-MMath::BigFloat', '-le', 'print Math::BigFloat->bpi(3)'],
      want: [{ sleepMs: 10 }, { out: '3.14\n' }, { exit: 0 }],
    },
    { name: 'print with escapes and list', args: ['-e', 'print "a\\tb", 1, "\\n"'], want: [{ out: 'a\tb1\n' }, { exit: 0 }] },
    { name: 'single quotes are literal', args: ['-le', "print 'x\\n'"], want: [{ out: 'x\\n\n' }, { exit: 0 }] },
    { name: 'say needs -E', args: ['-E', 'say "hi"; exit 2'], want: [{ out: 'hi\n' }, { exit: 2 }] },
    { name: 'say under -e is not modelled', args: ['-e', 'say "hi"'], want: null },
    {
      name: 'sleep then output at exit',
      args: ['-e', 'print "a\\n"; sleep 2; print "b\\n"'],
      want: [{ sleepMs: 2000 }, { out: 'a\nb\n' }, { exit: 0 }],
    },
    { name: 'two -e lines', args: ['-e', 'print "a";', '-e', 'print "b\\n"'], want: [{ out: 'ab\n' }, { exit: 0 }] },
    { name: '-e without code', args: ['-e'], want: [{ err: 'No code specified for -e.\n' }, { exit: 25 }] },
    { name: 'a loop is not modelled', args: ['-e', 'while (1) { sleep 1 }'], want: null },
    { name: 'interpolation is not modelled', args: ['-e', 'print "$x\\n"'], want: null },
    { name: 'a script file is not modelled', args: ['/app/x.pl'], want: null },
  ];
  test.each(cases)('$name', ({ args, want }) => {
    expect(perlOneLiner(args)).toEqual(want);
  });
});
