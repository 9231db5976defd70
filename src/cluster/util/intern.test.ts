import { describe, expect, it } from 'vitest';
import { StringIntern } from './intern';

describe('StringIntern', () => {
  it('returns the first instance for equal strings built separately', () => {
    const pool = new StringIntern(8);
    const a = pool.intern(['0/4 nodes', 'are available'].join(' '));
    const b = pool.intern('0/4 nodes ' + 'are available');
    expect(b).toBe('0/4 nodes are available');
    expect(pool.size).toBe(1);
    expect(a).toBe(b);
  });

  it('starts a new generation when full (bounded)', () => {
    const pool = new StringIntern(3);
    for (const s of ['a', 'b', 'c']) pool.intern(s);
    expect(pool.size).toBe(3);
    pool.intern('d');
    expect(pool.size).toBe(1);
    expect(pool.intern('a')).toBe('a');
    expect(pool.size).toBe(2);
  });
});
