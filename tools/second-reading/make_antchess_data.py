"""Random positions of antchess or antchess3 with perft(2) by the second reading.

    python3 make_antchess_data.py antchess|antchess3 COUNT SEED > out.tsv
"""
import random, sys
sys.path.insert(0, __import__('os').path.dirname(__file__))
import antchess as A
gid, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
g = A.Game(3 if gid == 'antchess3' else 2)
out = []
while len(out) < n:
    pos = A.parse(g, A.START[gid])
    greed = rng.random()
    for ply in range(rng.randint(5, 140)):
        ms = pos.legal()
        if not ms:
            break
        caps = [m for m in ms if m != 'pass' and (m[2] or m[3])]
        m = rng.choice(caps) if caps and rng.random() < greed else rng.choice(ms)
        pos = pos.apply(m)
    text = pos.fen()
    out.append(text)
    print(f"{text}\t2\t{A.perft(pos, 2)}", flush=True)
