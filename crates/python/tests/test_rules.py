"""The rules from Python against the `myrmidon` program: perft, random games, bad input."""

import copy
import os
import random
import subprocess
import threading

import pytest

import myrmidon

BIN = os.environ.get("MYRMIDON_BIN", "myrmidon")
IDS = myrmidon.games()


def cli(*args: str) -> str:
    return subprocess.run([BIN, *args], check=True, capture_output=True, text=True).stdout


def test_the_games_are_the_programs():
    assert IDS == cli("games").split()
    assert len(IDS) >= 5


@pytest.mark.parametrize("game_id", IDS)
def test_perft_equals_the_command_line(game_id):
    for depth in range(4):
        expected = int(cli("perft", game_id, str(depth)).split()[-1])
        assert myrmidon.perft(game_id, depth) == expected, (game_id, depth)
        assert myrmidon.Game(game_id).perft(depth) == expected


@pytest.mark.parametrize("game_id", IDS)
def test_random_games_end_as_the_command_line_says(game_id):
    rng = random.Random(game_id)
    for _ in range(3):
        game = myrmidon.Game(game_id)
        while not game.is_over and len(game.moves) < 400:
            moves = game.legal_moves()
            assert moves, "a game that goes on has a legal move"
            # The program lists the same moves.
            if len(game.moves) % 25 == 0:
                listed = cli("moves", game_id, "--position", game.position).split("\n")
                assert sorted(m for m in listed if m) == sorted(moves)
            game.play(rng.choice(moves))
        # Replay the moves through a fresh game and a position string: the same end.
        again = myrmidon.Game(game_id)
        for m in game.moves:
            again.play(m)
        assert again.position == game.position
        assert again.outcome() == game.outcome()
        at = myrmidon.Game(game_id, position=game.position)
        assert at.position == game.position
        if game.is_over:
            assert game.legal_moves() == []
            assert game.outcome().reason


def test_play_and_undo_restore_the_position():
    for game_id in IDS:
        game = myrmidon.Game(game_id)
        start = game.position
        first = game.legal_moves()[0]
        game.play(first)
        assert game.moves == [first]
        assert game.position != start
        assert game.undo()
        assert game.position == start
        assert not game.undo()


def test_copies_are_independent():
    game = myrmidon.Game(IDS[0])
    twin = copy.deepcopy(game)
    game.play(game.legal_moves()[0])
    assert twin.moves == []
    assert game.copy().moves == game.moves


def test_settings_choose_the_start():
    with_settings = [i for i in IDS if myrmidon.settings(i)]
    assert with_settings, "some game has settings"
    for game_id in with_settings:
        for name, values in myrmidon.settings(game_id):
            default = myrmidon.Game(game_id)
            for value in values:
                game = myrmidon.Game(game_id, **{name: value})
                assert (name, value) in game.settings
                expected = cli("moves", game_id, "--set", f"{name}={value}").split()
                assert sorted(game.legal_moves()) == sorted(expected)
            assert (name, values[0]) in default.settings or default.settings == []


def test_players_and_turns():
    for game_id in IDS:
        game = myrmidon.Game(game_id)
        assert game.to_move == 0
        assert len(game.players) in (2, 3)
        assert game.id == game_id
        assert repr(game).startswith("Game(")


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: myrmidon.Game("chess"), myrmidon.UnknownGameError),
        (lambda: myrmidon.perft("nope", 1), myrmidon.UnknownGameError),
        (lambda: myrmidon.Game(IDS[0], position="not a position"), myrmidon.PositionError),
        (lambda: myrmidon.Game(IDS[0], position=""), myrmidon.PositionError),
        (lambda: myrmidon.Game(IDS[0]).play("z9-z10"), myrmidon.MoveError),
        (lambda: myrmidon.Game(IDS[0]).play(""), myrmidon.MoveError),
        (lambda: myrmidon.Game(IDS[0], colour="green"), myrmidon.SettingError),
        (lambda: myrmidon.settings("nope"), myrmidon.UnknownGameError),
        (lambda: myrmidon.Game(IDS[0], position="x", region="y"), myrmidon.SettingError),
        (lambda: myrmidon.perft(IDS[0], 65), ValueError),
        (lambda: myrmidon.perft(IDS[0], -1), OverflowError),
    ],
)
def test_bad_input_raises_with_the_librarys_message(call, error):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value)
    if issubclass(error, myrmidon.MyrmidonError):
        assert isinstance(caught.value, ValueError)


def test_a_setting_value_must_be_text():
    game_id, (name, _) = next((i, s[0]) for i in IDS if (s := myrmidon.settings(i)))
    with pytest.raises(TypeError):
        myrmidon.Game(game_id, **{name: 3})


def test_perft_lets_other_threads_run():
    # Two perfts in two threads give the same counts as one after the other.
    game_id = IDS[0]
    expected = myrmidon.perft(game_id, 4)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(myrmidon.perft(game_id, 4)))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [expected, expected]


@pytest.mark.parametrize("game_id", IDS)
def test_records_are_written_and_read_back(game_id):
    rng = random.Random(game_id + "record")
    game = myrmidon.Game(game_id)
    while not game.is_over and len(game.moves) < 60:
        game.play(rng.choice(game.legal_moves()))
    text = game.record(event="Python", players=[f"p{i}" for i in range(len(game.players))])
    assert '[Event "Python"]' in text
    (tags, again), = myrmidon.read_records(text)
    assert dict(tags)["Event"] == "Python"
    assert again.moves == game.moves and again.position == game.position
    assert again.outcome() == game.outcome()
    assert again.record(event="Python", players=[f"p{i}" for i in range(len(game.players))]) == text
    # Two games in one text.
    assert len(myrmidon.read_records(text + "\n" + myrmidon.Game(game_id).record())) == 2


def test_bad_records_raise_naming_the_line():
    good = myrmidon.Game("reines").record()
    with pytest.raises(myrmidon.RecordError, match="line"):
        myrmidon.read_records(good.replace("*", "zz9 *"))
    with pytest.raises(myrmidon.RecordError):
        myrmidon.read_records('[Game "nothing"]\n\n*\n')
    assert issubclass(myrmidon.RecordError, myrmidon.MyrmidonError)
