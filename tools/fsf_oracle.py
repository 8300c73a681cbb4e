#!/usr/bin/env python3
"""Reference data for Ackenhead from Fairy-Stockfish (the `pyffish` module, `pip install pyffish`).

Plays random games (preferring captures now and then, so boards thin out and promotions, en
passant and hopper checks happen), and writes, for sampled positions, Fairy-Stockfish's legal
moves and perft counts. The Rust tests compare our generator with these files.

    python3 tools/fsf_oracle.py VARIANTS_INI moves N SEED > moves.tsv   # fen \t sorted moves
    python3 tools/fsf_oracle.py VARIANTS_INI perft N SEED DEPTH > perft.tsv
"""
import random
import sys

import pyffish as sf

V = "ackenhead"


def perft(fen, depth):
    moves = sf.legal_moves(V, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(sf.get_fen(V, fen, [m]), depth - 1) for m in moves)


def random_positions(n, rng):
    out = []
    while len(out) < n:
        fen = sf.start_fen(V)
        greed = rng.random()
        for ply in range(rng.randint(1, 160)):
            moves = sf.legal_moves(V, fen, [])
            if not moves:
                break
            if rng.random() < 0.15:
                out.append(fen)
            caps = [m for m in moves if sf.is_capture(V, fen, [], m)]
            if caps and rng.random() < greed:
                m = rng.choice(caps)
            else:
                m = rng.choice(moves)
            fen = sf.get_fen(V, fen, [m])
        out.append(fen)
    return out[:n]


def main():
    sf.load_variant_config(open(sys.argv[1]).read())
    mode, n, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    for fen in random_positions(n, rng):
        if mode == "moves":
            print(fen + "\t" + " ".join(sorted(sf.legal_moves(V, fen, []))))
        else:
            depth = int(sys.argv[5])
            print(f"{fen}\t{depth}\t{perft(fen, depth)}")


if __name__ == "__main__":
    main()
