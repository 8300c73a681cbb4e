"""Self-play data for a learning program: the engine plays itself, every position is written
as NumPy arrays, and the file is read back.

    python examples/python/selfplay.py reines --games 20 --nodes 2000 --out reines.npz

For each position where a player moved: ``observations`` (the planes seen by the player to
move, docs/python.md "Observations"), ``masks`` (the legal actions), ``actions`` (the action
the engine chose) and ``results`` (the game's result for that player: +1 won, -1 lost, 0 drawn
or cut off at ``--max-plies``). Reading it back checks that every chosen action was legal and
prints how the results fell; a policy and value network would be trained on exactly these.
"""

import argparse
import random

import numpy as np

import myrmidon


def play_one(game_id, engine, nodes, max_plies, rng):
    game = myrmidon.Game(game_id)
    engine.new_game()
    positions = []
    # A few random first moves, so that the games differ.
    for _ in range(2):
        if not game.is_over:
            game.play(rng.choice(game.legal_moves()))
    while not game.is_over and len(positions) < max_plies:
        move = engine.best_move(game, nodes=nodes)
        positions.append((game.observation(), game.action_mask(), game.action_of(move), game.to_move))
        game.play(move)
    outcome = game.outcome()
    rows = []
    for obs, mask, action, seat in positions:
        if outcome is None or outcome.winner is None:
            result = 0.0
        else:
            result = 1.0 if outcome.winner == seat else -1.0
        rows.append((obs, mask, action, result))
    return rows, outcome


def main():
    parser = argparse.ArgumentParser(description="Self-play data from the engine, as NumPy arrays.")
    parser.add_argument("game", help="a game id: " + ", ".join(myrmidon.games()))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=2000, help="nodes the engine searches a move")
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="selfplay.npz")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    engine = myrmidon.Engine(args.game, level=args.level)
    rows, outcomes = [], []
    for _ in range(args.games):
        game_rows, outcome = play_one(args.game, engine, args.nodes, args.max_plies, rng)
        rows.extend(game_rows)
        outcomes.append(outcome)
    np.savez_compressed(
        args.out,
        observations=np.stack([r[0] for r in rows]),
        masks=np.stack([r[1] for r in rows]),
        actions=np.array([r[2] for r in rows], dtype=np.int64),
        results=np.array([r[3] for r in rows], dtype=np.float32),
    )

    data = np.load(args.out)
    observations, masks, actions, results = (
        data["observations"], data["masks"], data["actions"], data["results"]
    )
    assert observations.shape == (len(rows), *myrmidon.observation_shape(args.game))
    assert masks.shape == (len(rows), myrmidon.action_space(args.game))
    assert np.all(masks[np.arange(len(actions)), actions] == 1), "every chosen action is legal"
    decided = sum(1 for o in outcomes if o is not None and o.winner is not None)
    print(
        f"{args.out}: {len(rows)} positions from {args.games} games ({decided} decided); "
        f"observations {observations.shape}, results +1: {int((results == 1).sum())}, "
        f"-1: {int((results == -1).sum())}, 0: {int((results == 0).sum())}"
    )


if __name__ == "__main__":
    main()
