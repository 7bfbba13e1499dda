# Instructions per operation by source file, and under each of the
# runtime's files the functions whose code there ran, from two callgrind
# outputs of one binary (N and 2N operations). Code inlined into another
# function counts in its own file, under the function it was inlined into
# (callgrind's `fi=`/`fe=`); a call's inclusive cost counts nowhere.
# usage: report.py ROOT AT_N AT_2N N [MIN]
import collections, re, sys

root, a, b, n = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
mn = float(sys.argv[5]) if len(sys.argv) > 5 else 0.5


def load(path):
    files, fns = {}, {}
    cost = collections.Counter()
    fl = cur = fn = None
    call = False
    for line in open(path):
        m = re.match(r'^(fl|fi|fe|fn|cfi|cfl|cfn|ob|cob)=\((\d+)\)(?: (.*))?$', line.rstrip('\n'))
        if m:
            kind, i, name = m.groups()
            table = fns if kind in ('fn', 'cfn') else files
            if name:
                table[i] = name
            if kind == 'fl':
                fl = cur = files.get(i)
            elif kind in ('fi', 'fe'):
                cur = files.get(i)
            elif kind == 'fn':
                cur, fn = fl, fns.get(i)
            continue
        if line.startswith('calls='):
            call = True
            continue
        if re.match(r'^[0-9+\-*]', line):
            if call:
                # The inclusive cost of the call on the line before.
                call = False
                continue
            parts = line.split()
            if len(parts) >= 2 and cur:
                cost[(cur, fn)] += int(parts[1])
    return cost


before, after = load(a), load(b)
by_file = collections.Counter()
by_fn = collections.defaultdict(collections.Counter)
for (f, fn), c in after.items():
    per = (c - before.get((f, fn), 0)) / n
    by_file[f] += per
    by_fn[f][fn] += per
src = root.rstrip('/') + '/src/'
rows = sorted(((per, f) for f, per in by_file.items() if per >= mn), reverse=True)
print('the runtime (src/):')
for per, f in rows:
    if f.startswith(src):
        print('%8.1f  %s' % (per, f[len(src):]))
        for fper, fn in sorted(((p, x) for x, p in by_fn[f].items() if p >= mn), reverse=True):
            # The function's name, without callgrind's note of its binary.
            name = re.sub(r'\[.*$', '', fn or '?').strip()
            print('%14.1f  %s' % (fper, name[:110]))
print('everything else (serde_json, serde, the allocator, the bench and its generated code):')
for per, f in rows:
    if not f.startswith(src):
        print('%8.1f  %s' % (per, f.replace(root.rstrip('/') + '/', '')))
