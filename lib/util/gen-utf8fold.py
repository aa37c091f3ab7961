#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen-utf8fold.py - write lib/util/utf8fold_data.c, the tables of the
"utf8-12.1" casefold (lib/util/casefold.c), from the Unicode Character
Database.

    python3 lib/util/gen-utf8fold.py [UCD-DIR] > lib/util/utf8fold_data.c

UCD-DIR (default /usr/share/unicode, Debian's unicode-data) must hold
UnicodeData.txt, CaseFolding.txt, DerivedAge.txt and
DerivedCoreProperties.txt of Unicode 12.1 or later: everything assigned
after 12.1 is left out, so any such version gives the same output
(tests/unit/casefold.bats checks the committed file against it).

What the fold of one code point is (the kernel's "nfdicf", from the facts
in fs/unicode/mkutf8data.c of Linux 6.1 and 6.12):
  - Default_Ignorable_Code_Point: removed (nothing);
  - else its full case folding (CaseFolding.txt status C and F), if any,
  - else its canonical decomposition (UnicodeData.txt field 5 without a
    <tag>), if any; Hangul syllables decompose algorithmically (in C);
  - then every code point of the result is replaced by its own fold,
    until nothing changes.
Code points assigned after 12.1 have no fold and combining class 0, as
the kernel's tables, made from 12.1, give unassigned code points.
"""
import os
import sys

MAX_AGE = (12, 1)
# Unassigned code points Unicode 12.1's DerivedCoreProperties.txt already
# lists as Default_Ignorable (reserved for that use); later versions
# assign some of them, so a later file alone cannot say which.
RESERVED_DI_12_1 = [(0x2065, 0x2065), (0xFFF0, 0xFFF8), (0xE0000, 0xE0000),
                    (0xE0002, 0xE001F), (0xE0080, 0xE00FF), (0xE01F0, 0xE0FFF)]
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
MAXEXP = 4      # code points of the longest multi-code-point fold (utf8fold.h)


def fields(path):
    """(first, last, [fields...]) of each data line of a UCD file."""
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split(';')]
            cps = parts[0].split('..')
            yield int(cps[0], 16), int(cps[-1], 16), parts[1:]


def load(ucd):
    age = {}
    for lo, hi, f in fields(os.path.join(ucd, 'DerivedAge.txt')):
        major, minor = (int(x) for x in f[0].split('.')[:2])
        for cp in range(lo, hi + 1):
            age[cp] = (major, minor)

    def old(cp):
        return cp in age and age[cp] <= MAX_AGE

    ccc, decomp = {}, {}
    for cp, _, f in fields(os.path.join(ucd, 'UnicodeData.txt')):
        if not old(cp):
            continue
        if int(f[2]):
            ccc[cp] = int(f[2])
        if f[4] and not f[4].startswith('<'):
            decomp[cp] = [int(x, 16) for x in f[4].split()]
    fold = {}
    for cp, _, f in fields(os.path.join(ucd, 'CaseFolding.txt')):
        if f[0] in ('C', 'F') and old(cp):
            fold[cp] = [int(x, 16) for x in f[1].split()]
            if not all(old(t) for t in fold[cp]):
                sys.exit('gen-utf8fold: %04X folds to a code point newer than 12.1' % cp)
    reserved = set()
    for lo, hi in RESERVED_DI_12_1:
        reserved.update(range(lo, hi + 1))
    ignorable = set(reserved)
    for lo, hi, f in fields(os.path.join(ucd, 'DerivedCoreProperties.txt')):
        if f[0] != 'Default_Ignorable_Code_Point':
            continue
        for cp in range(lo, hi + 1):
            if old(cp):
                ignorable.add(cp)
            elif cp not in age and cp not in reserved:
                sys.exit('gen-utf8fold: unassigned %04X is ignorable here but not in 12.1' % cp)
    for lo, hi in RESERVED_DI_12_1:
        if any(old(cp) for cp in range(lo, hi + 1)):
            sys.exit('gen-utf8fold: reserved ignorable %04X..%04X is assigned by 12.1' % (lo, hi))
    return ccc, decomp, fold, ignorable


def expand(ccc, decomp, fold, ignorable):
    """Full fold of every code point that has one (not Hangul syllables),
    built in the kernel's order: the canonical decomposition is expanded
    first, then the fold (or that decomposition) of every code point in
    it is substituted until nothing changes."""
    def closure(step):
        done = {}

        def full(cp, depth=0):
            if cp not in done:
                if depth > 32:
                    sys.exit('gen-utf8fold: %04X expands without end' % cp)
                out = []
                for c in step[cp]:
                    out.extend(full(c, depth + 1) if c in step else [c])
                done[cp] = out
            return done[cp]
        return {cp: full(cp) for cp in step}

    nfd = dict(decomp)
    for cp in ignorable:
        nfd[cp] = []
    nfd = closure(nfd)
    step = dict(nfd)
    step.update(fold)
    for cp in ignorable:
        step[cp] = []
    maps = closure(step)
    for cp, m in maps.items():
        if HANGUL_FIRST <= cp <= HANGUL_LAST or \
           any(HANGUL_FIRST <= c <= HANGUL_LAST for c in m):
            sys.exit('gen-utf8fold: %04X: a Hangul syllable in the tables' % cp)
        if m == [cp]:
            sys.exit('gen-utf8fold: %04X folds to itself' % cp)
        if len(m) > MAXEXP:
            sys.exit('gen-utf8fold: fold of %04X is %d code points (MAXEXP %d)' %
                     (cp, len(m), MAXEXP))
    return maps


def ranges_of(cps):
    """Runs of consecutive code points of a sorted list: [(first, last)]."""
    out = []
    for cp in cps:
        if out and out[-1][1] + 1 == cp:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def single_runs(singles):
    """Single-code-point folds as runs [first, last, step, delta]: cp with
    first <= cp <= last and (cp - first) % step == 0 folds to cp + delta.
    A step-2 run skips only code points without a single fold, so the runs
    never overlap (the skipped ones may have a multi-code-point fold)."""
    runs = []
    for cp in sorted(singles):
        delta = singles[cp] - cp
        if runs and runs[-1][3] == delta:
            first, last, step, _ = runs[-1]
            gap = cp - last
            if (gap == 1 and (first == last or step == 1)) or \
               (gap == 2 and (first == last or step == 2) and last + 1 not in singles):
                runs[-1][1:3] = [cp, gap]
                continue
        runs.append([cp, cp, 1, delta])
    return runs


def emit(ccc, maps, ignorable):
    w = sys.stdout.write
    w('// SPDX-License-Identifier: GPL-2.0-or-later\n')
    w('/*\n * utf8fold_data.c - GENERATED by lib/util/gen-utf8fold.py from the Unicode\n'
      ' * Character Database restricted to Age <= 12.1: do not edit.  To regenerate:\n'
      ' *   python3 lib/util/gen-utf8fold.py /usr/share/unicode > lib/util/utf8fold_data.c\n'
      ' * (tests/unit/casefold.bats checks this file against that output).\n */\n')
    w('#include "utf8fold.h"\n\n')

    rows = []
    for cp in sorted(ccc):
        if rows and rows[-1][1] + 1 == cp and rows[-1][2] == ccc[cp]:
            rows[-1][1] = cp
        else:
            rows.append([cp, cp, ccc[cp]])
    w('/* canonical combining class of the code points where it is not 0 */\n')
    w('const struct f2_cf_ccc f2_cf_ccc[] = {\n')
    for lo, hi, c in rows:
        w('\t{ 0x%05x, 0x%05x, %3d },\n' % (lo, hi, c))
    w('};\nconst unsigned f2_cf_nccc = %d;\n\n' % len(rows))

    ign = ranges_of(sorted(c for c in ignorable))
    w('/* removed by the fold (Default_Ignorable_Code_Point) */\n')
    w('const struct f2_cf_range f2_cf_ignorable[] = {\n')
    for lo, hi in ign:
        w('\t{ 0x%05x, 0x%05x },\n' % (lo, hi))
    w('};\nconst unsigned f2_cf_nignorable = %d;\n\n' % len(ign))

    singles = {cp: m[0] for cp, m in maps.items() if len(m) == 1}
    runs = [r for r in single_runs(singles) if r[0] != r[1]]
    covered = set()
    for lo, hi, step, _ in runs:
        covered.update(range(lo, hi + 1, step))
    w('/* folds to one code point: cp + delta for cp = first, first + step, ... last */\n')
    w('const struct f2_cf_run f2_cf_runs[] = {\n')
    for lo, hi, step, d in runs:
        w('\t{ 0x%05x, 0x%05x, %d, %6d },\n' % (lo, hi, step, d))
    w('};\nconst unsigned f2_cf_nruns = %d;\n\n' % len(runs))

    rest = sorted(cp for cp in maps if cp not in covered)
    w('/* every other fold, up to F2_CF_MAXEXP code points (0: none) */\n')
    w('const struct f2_cf_map f2_cf_maps[] = {\n')
    for cp in rest:
        w('\t{ 0x%05x, { %s } },\n' % (cp, ', '.join('0x%x' % c for c in maps[cp])))
    w('};\nconst unsigned f2_cf_nmaps = %d;\n' % len(rest))


def main():
    ucd = sys.argv[1] if len(sys.argv) > 1 else '/usr/share/unicode'
    ccc, decomp, fold, ignorable = load(ucd)
    maps = expand(ccc, decomp, fold, ignorable)
    emit(ccc, {cp: m for cp, m in maps.items() if m}, ignorable)


if __name__ == '__main__':
    main()
