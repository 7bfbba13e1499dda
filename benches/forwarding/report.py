# Failures per operation from two forwarding.c outputs of one binary (0 and N
# operations), by function and by instruction address (as objdump shows it),
# each load followed by the stores it read part of.
# usage: report.py BIN AT_0 AT_N N [MIN]
import sys, subprocess, bisect, collections
binp, a, b, n = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
mn = float(sys.argv[5]) if len(sys.argv) > 5 else 0.05
def load(p):
    loads, stores = {}, collections.defaultdict(dict)
    for l in open(p):
        f = l.split()
        if f[0] == 'L':
            loads[int(f[1], 16)] = int(f[2])
        else:
            stores[int(f[1], 16)][int(f[2], 16)] = int(f[3])
    return loads, stores
(A, SA), (B, SB) = load(a), load(b)
syms = []
for l in subprocess.run(['nm', '-C', '--defined-only', binp], capture_output=True, text=True).stdout.splitlines():
    p = l.split(' ', 2)
    if len(p) == 3 and p[1] in 'tTwW':
        syms.append((int(p[0], 16), p[2]))
syms.sort(); addrs = [s[0] for s in syms]
# valgrind loads a position-independent executable at this address.
base = 0x108000
def name(pc):
    # Past the binary's last symbol (a shared library, such as libc's
    # memcpy) no symbol of the binary names it.
    if not addrs or not addrs[0] <= pc - base <= addrs[-1]:
        return '(outside the binary)'
    return syms[bisect.bisect_right(addrs, pc - base) - 1][1]
tot = 0; byfn = collections.Counter()
rows = []
for pc in B:
    d = (B[pc] - A.get(pc, 0)) / n
    if d >= mn:
        rows.append((d, pc)); tot += d; byfn[name(pc)[:120]] += d
print('total per read %.2f' % tot)
for f, d in byfn.most_common(): print('%6.2f %s' % (d, f))
print()
for d, pc in sorted(rows, reverse=True)[:40]:
    print('%6.2f %x %s' % (d, pc - base, name(pc)[:100]))
    for st, c in sorted(SB[pc].items(), key=lambda x: -x[1]):
        e = (c - SA.get(pc, {}).get(st, 0)) / n
        if e >= mn:
            print('       stored by %x %s' % (st - base, name(st)[:90]))
