"""Speed of the Python package (docs/python.md, "Speed").

    python crates/python/benchmarks/speed.py [--seconds S] [--pyffish VARIANTS_INI]

Per game id: random playouts (legal moves as text, one chosen and played), steps of the
PettingZoo environment (an action played, the next observation and mask made), steps of
``VecGames`` with 64 games (per game), and perft 4 through Python. With ``--pyffish`` and
Fairy-Stockfish's ``pyffish`` module installed, the same random playouts of Ackenhead through
pyffish (``get_fen`` after the move, ``legal_moves`` of the new position, ``game_result``
checks), side by side.
"""

import argparse
import random
import time

import numpy as np

import myrmidon
from myrmidon.env import env


def rate(seconds, step):
    """Calls ``step`` (which returns how many units it did) for ``seconds``; units a second."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += step()
    return done / (time.perf_counter() - start)


def playouts(game_id, seconds, seed=1):
    rng = random.Random(seed)
    state = {"game": myrmidon.Game(game_id), "plies": 0}

    def step():
        game = state["game"]
        if game.is_over or state["plies"] >= 300:
            state.update(game=myrmidon.Game(game_id), plies=0)
            game = state["game"]
        game.play(rng.choice(game.legal_moves()))
        state["plies"] += 1
        return 1

    return rate(seconds, step)


def env_steps(game_id, seconds, seed=1):
    e = env(game_id, max_plies=300)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def step():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.reset()
            return 0
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return 1

    return rate(seconds, step)


def vec_steps(game_id, seconds, n=64):
    games = myrmidon.VecGames(game_id, n, max_plies=300, seed=1)
    games.reset()

    def step():
        games.step(games.random_actions())
        return n

    return rate(seconds, step)


def perft_rate(game_id):
    start = time.perf_counter()
    nodes = myrmidon.perft(game_id, 4)
    return nodes / (time.perf_counter() - start)


def pyffish_playouts(variants_ini, seconds, seed=1):
    import pyffish as sf

    with open(variants_ini) as f:
        sf.load_variant_config(f.read())
    variant = "ackenhead"
    start = sf.start_fen(variant)
    rng = random.Random(seed)
    state = {"fen": start, "plies": 0, "moves": sf.legal_moves(variant, start, [])}

    def step():
        if not state["moves"] or state["plies"] >= 300:
            state.update(fen=start, plies=0, moves=sf.legal_moves(variant, start, []))
        move = rng.choice(state["moves"])
        fen = sf.get_fen(variant, state["fen"], [move])
        moves = sf.legal_moves(variant, fen, [])
        ended, _ = sf.is_optional_game_end(variant, fen, [])
        if not moves or ended:
            moves = []
        state.update(fen=fen, plies=state["plies"] + 1, moves=moves)
        return 1

    return rate(seconds, step)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--pyffish", metavar="VARIANTS_INI")
    args = parser.parse_args()
    print(f"{'game':<12} {'playout plies/s':>16} {'env steps/s':>12} {'VecGames steps/s':>17} {'perft 4 nodes/s':>16}")
    for game_id in myrmidon.games():
        print(
            f"{game_id:<12} {playouts(game_id, args.seconds):>16,.0f} {env_steps(game_id, args.seconds):>12,.0f} "
            f"{vec_steps(game_id, args.seconds):>17,.0f} {perft_rate(game_id):>16,.0f}"
        )
    if args.pyffish:
        print(f"pyffish ackenhead playout plies/s: {pyffish_playouts(args.pyffish, args.seconds):,.0f}")


if __name__ == "__main__":
    main()
