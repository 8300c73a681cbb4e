"""The engine from Python: lines, moves, limits, threads and bad input."""

import threading
import time

import pytest

import myrmidon

IDS = myrmidon.games()


@pytest.mark.parametrize("game_id", IDS)
def test_analysis_gives_legal_lines_to_the_depth_asked(game_id):
    game = myrmidon.Game(game_id)
    lines = myrmidon.Engine(game_id).analyse(game, depth=3, multipv=2)
    assert len(lines) == 2
    assert lines[0].pv[0] != lines[1].pv[0]
    for line in lines:
        assert line.depth == 3
        assert line.nodes > 0
        assert (line.score is None) != (line.mate is None)
        replay = game.copy()
        for move in line.pv:
            assert move in replay.legal_moves()
            replay.play(move)
    # Best first.
    if lines[0].score is not None and lines[1].score is not None:
        assert lines[0].score >= lines[1].score


@pytest.mark.parametrize("game_id", IDS)
def test_best_move_is_legal_at_every_level(game_id):
    game = myrmidon.Game(game_id)
    for level in (1, 4, 8):
        move = myrmidon.best_move(game, level=level, nodes=2000)
        assert move in game.legal_moves()


def test_a_node_limit_bounds_the_search():
    game_id = IDS[0]
    lines = myrmidon.analyse(myrmidon.Game(game_id), nodes=5000)
    assert lines and lines[-1].nodes <= 5000 + 64


def test_no_move_once_the_game_is_over():
    # Play random-free engine moves at a shallow depth until some game ends.
    for game_id in IDS:
        game = myrmidon.Game(game_id)
        engine = myrmidon.Engine(game_id, level=1)
        while not game.is_over and len(game.moves) < 600:
            game.play(engine.best_move(game, depth=1))
        if game.is_over:
            assert engine.best_move(game, depth=2) is None
            assert engine.analyse(game, depth=2) == []
            return
    pytest.fail("no game ended within 600 moves at level 1")


def test_a_search_lets_other_python_threads_run():
    game_id = IDS[0]
    engine = myrmidon.Engine(game_id)
    done = threading.Event()
    result = []

    def search():
        result.append(engine.best_move(myrmidon.Game(game_id), movetime=600))
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    # Python code runs while the search does (it holds no global lock): the loop counts
    # until the search ends.
    count = 0
    while not done.is_set():
        count += 1
    worker.join()
    assert result and result[0] in myrmidon.Game(game_id).legal_moves()
    assert count > 10_000


def test_searches_in_two_python_threads_run_at_once():
    # Each search thinks for 800 ms of wall-clock time, whatever the machine's load. Run one
    # after the other (as they would be if a search held the global lock) they would take
    # 1.6 s; at once, a little over 0.8 s.
    movetime = 800
    spans = []

    def search(game_id):
        engine = myrmidon.Engine(game_id)
        game = myrmidon.Game(game_id)
        start = time.monotonic()
        move = engine.best_move(game, movetime=movetime)
        spans.append((start, time.monotonic(), move in game.legal_moves()))

    threads = [threading.Thread(target=search, args=(game_id,)) for game_id in IDS[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(spans) == 2 and all(legal for _, _, legal in spans)
    (start_a, end_a, _), (start_b, end_b, _) = spans
    overlap = min(end_a, end_b) - max(start_a, start_b)
    assert overlap > 0.5 * movetime / 1000, f"the two searches overlapped {overlap:.3f} s only"


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: myrmidon.Engine("nope"), myrmidon.UnknownGameError),
        (lambda: myrmidon.Engine(IDS[0], level=0), ValueError),
        (lambda: myrmidon.Engine(IDS[0], level=9), ValueError),
        (lambda: myrmidon.Engine(IDS[0], hash_mb=0), ValueError),
        (lambda: myrmidon.Engine(IDS[0], threads=0), ValueError),
        (lambda: myrmidon.Engine(IDS[0]).analyse(myrmidon.Game(IDS[1]), depth=1), myrmidon.MyrmidonError),
        (lambda: myrmidon.Engine(IDS[0]).analyse(myrmidon.Game(IDS[0]), multipv=0), ValueError),
        (lambda: myrmidon.Engine(IDS[0]).best_move(myrmidon.Game(IDS[0]), depth=-1), OverflowError),
    ],
)
def test_bad_engine_input_raises(call, error):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value)


# A real Ctrl-C (SIGINT to the process) in the middle of a call that would run for hours: the
# call raises KeyboardInterrupt, and the engine still answers afterwards. Run in a child
# interpreter, so that the signal cannot reach pytest itself.
INTERRUPTED = """
import os, signal, threading, myrmidon
# A process started in the background inherits SIGINT ignored, and Python then leaves it so:
# install the handler an interactive interpreter has.
signal.signal(signal.SIGINT, signal.default_int_handler)
def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)
game = myrmidon.Game({game_id!r})
engine = myrmidon.Engine({game_id!r})
for name, call in [
    ("perft", lambda: myrmidon.perft({game_id!r}, 40)),
    ("game.perft", lambda: game.perft(40)),
    ("analyse", lambda: engine.analyse(game, depth=200)),
    ("best_move", lambda: engine.best_move(game, movetime=3_600_000)),
]:
    timer = threading.Timer(0.3, ctrl_c)
    timer.start()
    try:
        call()
        print(name, "finished")
    except KeyboardInterrupt:
        print(name, "interrupted")
    timer.join()
print("afterwards", engine.best_move(game, depth=2) in game.legal_moves())
"""


@pytest.mark.parametrize("game_id", [IDS[0], IDS[-1]])
def test_ctrl_c_interrupts_perft_and_searches(game_id):
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", INTERRUPTED.format(game_id=game_id)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == [
        "perft interrupted",
        "game.perft interrupted",
        "analyse interrupted",
        "best_move interrupted",
        "afterwards True",
        "",
    ]
