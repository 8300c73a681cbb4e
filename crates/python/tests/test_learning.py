"""Actions, observations, the vectorised games and the environments."""

import os
import random
import subprocess

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import myrmidon
from myrmidon.env import MyrmidonEnv, SingleAgentEnv, env

BIN = os.environ.get("MYRMIDON_BIN", "myrmidon")
IDS = myrmidon.games()


def random_game(game_id, seed, plies):
    rng = random.Random(seed)
    game = myrmidon.Game(game_id)
    for _ in range(plies):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("game_id", IDS)
def test_actions_name_the_legal_moves_one_to_one(game_id):
    size = myrmidon.action_space(game_id)
    rng = random.Random(game_id)
    for seed in range(3):
        game = myrmidon.Game(game_id)
        while not game.is_over and len(game.moves) < 300:
            moves = game.legal_moves()
            actions = game.legal_actions()
            assert len(actions) == len(moves) == len(set(actions))
            assert all(0 <= a < size for a in actions)
            mask = game.action_mask()
            assert mask.dtype == np.int8 and mask.shape == (size,)
            assert mask.sum() == len(moves) and all(mask[a] == 1 for a in actions)
            i = rng.randrange(len(moves))
            assert game.move_of(actions[i]) == moves[i]
            assert game.action_of(moves[i]) == actions[i]
            assert game.play_action(actions[i]) == moves[i]
        if game.is_over:
            assert game.legal_actions() == [] and game.action_mask().sum() == 0


def test_bad_actions_raise_and_play_nothing():
    game = myrmidon.Game("ackenhead")
    size = myrmidon.action_space("ackenhead")
    legal = set(game.legal_actions())
    illegal = next(a for a in range(size) if a not in legal)
    for bad in (-1, size, size + 10**6, illegal):
        with pytest.raises(myrmidon.MoveError):
            game.play_action(bad)
        with pytest.raises(myrmidon.MoveError):
            game.move_of(bad)
    with pytest.raises(myrmidon.MoveError):
        game.action_of("a1a8")
    with pytest.raises(TypeError):
        game.play_action("e2e4")
    assert game.moves == []
    with pytest.raises(myrmidon.UnknownGameError):
        myrmidon.action_space("chess")
    with pytest.raises(myrmidon.SettingError):
        myrmidon.observation_shape("reines", region="nowhere")


@pytest.mark.parametrize("game_id", IDS)
def test_observations_show_the_board_from_each_seat(game_id):
    shape = myrmidon.observation_shape(game_id)
    names = myrmidon.observation_planes(game_id)
    assert len(names) == shape[0]
    game = random_game(game_id, 5, 40)
    seats = len(game.players)
    kinds = sum(1 for n in names if n.startswith("piece/0/"))
    views = [game.observation(seat) for seat in range(seats)]
    for view in views:
        assert view.shape == shape and view.dtype == np.float32 and view.min() >= 0
    # Seat s's player p is seat 0's player (s + p) mod n: the same pieces, turned.
    for seat in range(seats):
        for p in range(seats):
            mine = views[seat][p * kinds:(p + 1) * kinds]
            theirs = views[0][((seat + p) % seats) * kinds:((seat + p) % seats + 1) * kinds]
            assert np.array_equal(mine, theirs)
    # Pieces only on cells, and the player to move marked as such.
    cells = views[0][names.index("cell")]
    assert views[0][: seats * kinds].sum() > 0
    assert np.all(views[0][: seats * kinds].sum(axis=0) <= cells)
    mover = game.observation()
    assert np.all(mover[names.index("to-move/0")] == 1)
    assert np.array_equal(mover, views[game.to_move])
    with pytest.raises(ValueError):
        game.observation(seats)


def test_facts_name_cells():
    facts = myrmidon.Game("reines").facts()
    assert ("ponte-square", 0, "b2") in facts


@pytest.mark.parametrize("game_id", IDS)
def test_vectorised_games_step_like_single_games(game_id):
    games = myrmidon.VecGames(game_id, 4, max_plies=60, seed=1)
    size = myrmidon.action_space(game_id)
    shape = myrmidon.observation_shape(game_id)
    seats = len(myrmidon.Game(game_id).players)
    obs, masks = games.reset()
    assert obs.shape == (4, *shape) and masks.shape == (4, size)
    # Follow each game with a Game of its own and compare at every step.
    mirrors = [myrmidon.Game(game_id) for _ in range(4)]
    ended = 0
    for _ in range(150):
        actions = games.random_actions()
        expected = []
        for i, mirror in enumerate(mirrors):
            assert np.array_equal(masks[i], mirror.action_mask())
            assert np.array_equal(obs[i], mirror.observation())
            mirror.play_action(int(actions[i]))
            expected.append(mirror)
        obs, masks, rewards, terminated, truncated = games.step(actions)
        assert rewards.shape == (4, seats)
        for i in range(4):
            mirror = mirrors[i]
            if terminated[i]:
                ended += 1
                outcome = mirror.outcome()
                assert outcome is not None
                if outcome.winner is None:
                    assert np.all(rewards[i] == 0)
                else:
                    assert rewards[i][outcome.winner] == 1 and rewards[i].sum() == 2 - seats
            else:
                assert not mirror.is_over and np.all(rewards[i] == 0)
            assert not (terminated[i] and truncated[i])
            if terminated[i] or truncated[i]:
                assert len(mirror.moves) <= 60
                mirrors[i] = myrmidon.Game(game_id)
            assert games.game(i).moves == mirrors[i].moves
    assert np.array_equal(games.to_move, [m.to_move for m in mirrors])


def test_vectorised_games_refuse_bad_actions_and_play_none():
    games = myrmidon.VecGames("reines", 3)
    before = [games.game(i).position for i in range(3)]
    actions = games.random_actions()
    actions[1] = -5
    with pytest.raises(myrmidon.MoveError, match="game 1"):
        games.step(actions)
    with pytest.raises(ValueError):
        games.step(actions[:2])
    assert [games.game(i).position for i in range(3)] == before
    with pytest.raises(ValueError):
        myrmidon.VecGames("reines", 0)
    with pytest.raises(ValueError):
        games.game(3)


@pytest.mark.parametrize("game_id", IDS)
def test_pettingzoo_api_test_passes(game_id):
    api_test(env(game_id, max_plies=400), num_cycles=300)


def outcome_of_the_program(game_id, moves):
    """What `myrmidon analyse` says of the position after these moves: over and how, or None."""
    out = subprocess.run(
        [BIN, "analyse", game_id, "--moves", " ".join(moves), "--depth", "1"],
        capture_output=True,
        text=True,
    )
    text = out.stdout + out.stderr
    return text if "the game is over" in text else None


@pytest.mark.parametrize("game_id", IDS)
def test_random_games_through_the_environment_end_as_the_program_says(game_id):
    for seed in range(2):
        e = env(game_id, max_plies=600)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        moves, final = [], {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                final[agent] = reward
                e.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            e.step(action)
            moves.append(e.infos[agent]["move"])
        game = e.game
        assert game.moves == moves
        said = outcome_of_the_program(game_id, moves)
        outcome = game.outcome()
        if outcome is None:
            assert said is None and len(moves) == 600
            continue
        assert said is not None, said
        if outcome.winner is None:
            assert "draw" in said.lower(), said
            assert set(final.values()) == {0}
        else:
            # (a side "wins", a people, as Jeu de Reines' Termides, "win")
            name = game.players[outcome.winner]
            assert f"{name} wins " in said or f"the {name} win " in said, said
            assert final[e.possible_agents[outcome.winner]] == 1
            assert sorted(final.values()) == [-1] * (len(final) - 1) + [1]


def test_three_agents_take_turns_in_the_game_order():
    e = env("antchess3")
    e.reset()
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.game.players == ["Black", "Red", "Green"]
    seen = []
    for agent in e.agent_iter(max_iter=6):
        obs, *_ = e.last()
        seen.append(agent)
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert seen == ["player_0", "player_1", "player_2"] * 2


def test_single_agent_environment_against_the_engine():
    check_env(SingleAgentEnv("reines", level=1, nodes=200, illegal="lose"), skip_render_check=True)
    e = SingleAgentEnv("reines", seat=1, level=1, nodes=200, max_plies=200)
    obs, info = e.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(myrmidon.MoveError):
        e.step(illegal)
    obs, info = e.reset(seed=3)
    # The engine (Termides) has moved: it is the agent's turn.
    assert len(e.game.moves) == 1 and e.game.to_move == 1
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        done = terminated or truncated
    if terminated:
        outcome = e.game.outcome()
        assert total == (0 if outcome.winner is None else (1 if outcome.winner == 1 else -1))
    else:
        assert total == 0 and len(e.game.moves) >= 200
    with pytest.raises(ValueError):
        SingleAgentEnv("reines", seat=2)


def test_the_self_play_example_runs_end_to_end(tmp_path):
    import sys

    script = os.path.join(os.path.dirname(__file__), "..", "..", "..", "examples", "python", "selfplay.py")
    out = tmp_path / "reines.npz"
    run = subprocess.run(
        [sys.executable, script, "reines", "--games", "2", "--nodes", "300", "--max-plies", "80", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    data = np.load(out)
    assert len(data["actions"]) == len(data["results"]) > 0
    assert set(np.unique(data["results"])) <= {-1.0, 0.0, 1.0}
    assert "positions from 2 games" in run.stdout
