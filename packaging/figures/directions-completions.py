#!/usr/bin/env python3
"""Do imagined completions see which directions pay? (the README's reading of
the directions regime). Makes the study's directions worlds (dreamrsi synth,
seed 100), takes the first N as histories revealed by builtin:portfolio at
the deployed beta 0.5 (the cells its replay reveals), draws C completions of
them with `dreamrsi imagine`, and compares, branch by branch, the best score
a completion gives attempts >= 3 with the complete world's, for branches of
the paying direction (the highest mean branch best in that world) and the
others, apart for branches the history opened and those it never opened
(an unopened root carries no direction tag in a history of synthetic worlds,
so its completion is drawn from the pooled stratum). Branches whose every
cell was revealed are skipped.
Usage: packaging/figures/directions-completions.py [BUILD_DIR] [N] [C]"""
import collections, json, os, statistics, subprocess, sys, tempfile

build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'build')
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10
completions = int(sys.argv[3]) if len(sys.argv) > 3 else 8
dreamrsi = os.path.join(build, 'bin', 'dreamrsi')


def run(*args):
    return subprocess.run([dreamrsi, *args], capture_output=True, text=True, check=True).stdout


def direction(cell):
    return next((t[len('direction:'):] for t in cell['tags'] if t.startswith('direction:')), '')


def ok_scores(cells):
    by_branch = collections.defaultdict(list)
    for c in cells:
        if c['fail_class'] == 'ok' and c['score'] is not None:
            by_branch[c['branch']].append((c['attempt'], c['score']))
    return by_branch


with tempfile.TemporaryDirectory() as work:
    run('synth', '--out', f'{work}/worlds', '--worlds', str(n), '--seed', '100', '--regime', 'directions',
        '--width', '10', '--depth', '11', '--fail-rate', '0.2', '--workers', '4')
    worlds = sorted(os.path.join(f'{work}/worlds', f) for f in os.listdir(f'{work}/worlds'))[:n]
    histories, revealed = [], []
    for j, path in enumerate(worlds):
        sweep = json.loads(run('replay', '--world', path, '--policy', 'builtin:portfolio', '--json'))['worlds'][0]['sweep']
        ids = set(next(s for s in sweep if s['beta'] == 0.5)['revealed'])
        tree = json.load(open(path))
        tree['cells'] = [c for c in tree['cells'] if c['id'] in ids]
        histories.append(f'{work}/h{j}.json')
        json.dump(tree, open(histories[-1], 'w'))
        revealed.append(ids)
    run('imagine', *sum((['--world', h] for h in histories), []), '--out', f'{work}/imagined',
        '--completions', str(completions))
    gaps = collections.defaultdict(list)
    for j, path in enumerate(worlds):
        cells = json.load(open(path))['cells']
        true = ok_scores(cells)
        dir_of = {c['branch']: direction(c) for c in cells}
        best_by_dir = collections.defaultdict(list)
        for b, scores in true.items():
            best_by_dir[dir_of[b]].append(max(s for _, s in scores))
        paying = max(best_by_dir, key=lambda d: statistics.mean(best_by_dir[d]))
        for k in range(completions):
            imagined = ok_scores(json.load(open(f'{work}/imagined/h{j}_k{k}.json'))['cells'])
            for b, scores in true.items():
                if all(f'b{b}a{a}' in revealed[j] for a, _ in scores):
                    continue
                deep_true = [s for a, s in scores if a >= 3]
                deep_imagined = [s for a, s in imagined.get(b, []) if a >= 3]
                opened = f'b{b}a0' in revealed[j]
                if deep_true and deep_imagined:
                    kind = ('paying' if dir_of[b] == paying else 'other', 'opened' if opened else 'unopened')
                    gaps[kind].append(max(deep_imagined) - max(deep_true))
    print(f'{n} histories, C {completions}: imagined minus true best score at attempts >= 3, per branch')
    for kind in (('paying', 'opened'), ('paying', 'unopened'), ('other', 'opened'), ('other', 'unopened')):
        v = gaps[kind]
        print(f'  {kind[0]:6} direction, {kind[1]:8} branches: {len(v):4} branch completions, '
              f'mean {statistics.mean(v):+.3f}, median {statistics.median(v):+.3f}')
