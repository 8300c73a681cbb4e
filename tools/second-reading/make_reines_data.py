"""Random positions of reines (both seatings) with perft(3) by the second reading.

    python3 make_reines_data.py COUNT SEED > out.tsv
"""
import random, sys
sys.path.insert(0, __import__('os').path.dirname(__file__))
import reines as R
n, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
starts = ['5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1',
          '5S1Q/4W1C1/5W1S/6W1/1w6/s1w5/1c1w4/q1s5 b d2c3b4g5f6e7 -/- 0 1']
for i in range(n):
    p = R.parse(rng.choice(starts))
    greed = rng.random()
    for ply in range(rng.randint(5, 120)):
        ms = R.gen_moves(p)
        if not ms:
            break
        caps = [m for m in ms if 'x' in R.move_text(m)]
        m = rng.choice(caps) if caps and rng.random() < greed else rng.choice(ms)
        q = R.apply(p, m)
        if not R.gen_moves(q) and rng.random() < 0.9:
            break  # mostly keep positions where the game goes on
        p = q
    print(f"{R.fmt(p)}\t3\t{R.perft(p, 3)}", flush=True)
