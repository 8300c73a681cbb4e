"""Environments for learning programs: a PettingZoo AEC environment for every game id (two or
three agents, with action masks), a Gymnasium environment for one agent against the engine,
and, in the native module, ``VecGames`` for many games stepped in one call.

They need the optional dependencies: ``pip install './crates/python[env]'`` (PettingZoo and
Gymnasium). See docs/python.md, "Environments".
"""

from typing import Dict, List, Optional

import numpy as np
from gymnasium import Env, spaces
from pettingzoo import AECEnv

from ._myrmidon import Engine, Game, MoveError, action_space, observation_shape


def _spaces(game_id: str, settings: Dict[str, str]):
    size = action_space(game_id)
    shape = observation_shape(game_id, **settings)
    observation = spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=np.inf, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(size)


def _rewards(game: Game, seats: int) -> List[float]:
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return [0.0] * seats
    return [1.0 if seat == outcome.winner else -1.0 for seat in range(seats)]


class MyrmidonEnv(AECEnv):
    """One game of ``game_id`` as a PettingZoo AEC environment.

    Agents are ``player_0``, ``player_1`` (and ``player_2``), the seats in turn order (their
    names in the game: ``env.game.players``). An observation is a dict: the planes
    of the position seen by that agent (``observation``, float32, ``myrmidon.observation_shape``)
    and ``action_mask`` (int8 over the game's ``myrmidon.action_space``; all zeros for an agent
    whose turn it is not). At the end every agent is rewarded: +1 the winner, −1 the others, 0
    all in a draw. ``max_plies`` truncates a longer game. An illegal action raises
    ``myrmidon.MoveError``.
    """

    metadata = {"render_modes": ["ansi"], "name": "myrmidon_v0", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        render_mode: Optional[str] = None,
        max_plies: Optional[int] = None,
        **settings: str,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if max_plies is not None and max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        self.game_id = game_id
        self.settings = dict(settings)
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.game = Game(game_id, **self.settings)
        self.possible_agents = [f"player_{seat}" for seat in range(len(self.game.players))]
        observation, action = _spaces(game_id, self.settings)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self._plies = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        if agent == self.agent_selection and not self.game.is_over:
            mask = self.game.action_mask()
        else:
            mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return {"observation": self.game.observation(seat), "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.game = Game(self.game_id, **self.settings)
        self._plies = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        move = self.game.play_action(int(action))
        self._plies += 1
        self.infos = {a: {} for a in self.agents}
        self.infos[agent]["move"] = move
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_over:
            for a, r in zip(self.possible_agents, _rewards(self.game, len(self.possible_agents))):
                self.rewards[a] = r
            self.terminations = {a: True for a in self.agents}
        elif self.max_plies is not None and self._plies >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        if not self.game.is_over:
            self.agent_selection = self.possible_agents[self.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        return self.game.position

    def close(self) -> None:
        pass


def env(game_id: str, render_mode: Optional[str] = None, max_plies: Optional[int] = None, **settings: str) -> MyrmidonEnv:
    """A PettingZoo AEC environment of ``game_id`` (see ``MyrmidonEnv``)."""
    return MyrmidonEnv(game_id, render_mode=render_mode, max_plies=max_plies, **settings)


class SingleAgentEnv(Env):
    """One seat of ``game_id`` against the engine at ``level`` in every other seat, as a
    Gymnasium environment. Observations and the action mask as in ``MyrmidonEnv``; the reward
    is the agent's at the end (+1, −1 or 0). The engine searches ``nodes`` nodes a move (or
    ``movetime`` milliseconds, or ``depth`` plies), so that with ``nodes`` a seeded episode
    repeats exactly. An action that is not legal raises ``myrmidon.MoveError``, or, with
    ``illegal="lose"``, ends the episode as a loss (reward −1).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        level: int = 1,
        nodes: Optional[int] = 2000,
        movetime: Optional[int] = None,
        depth: Optional[int] = None,
        max_plies: Optional[int] = None,
        render_mode: Optional[str] = None,
        illegal: str = "raise",
        **settings: str,
    ) -> None:
        super().__init__()
        if illegal not in ("raise", "lose"):
            raise ValueError('illegal must be "raise" or "lose"')
        self.illegal = illegal
        self.game_id = game_id
        self.settings = dict(settings)
        self.game = Game(game_id, **self.settings)
        seats = len(self.game.players)
        if not 0 <= seat < seats:
            raise ValueError(f"seat must be from 0 to {seats - 1}, not {seat}")
        if max_plies is not None and max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        self.seat = seat
        self.engine = Engine(game_id, level=level)
        self.limits = {"nodes": nodes, "movetime": movetime, "depth": depth}
        self.max_plies = max_plies
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(game_id, self.settings)
        self._plies = 0

    def _observe(self) -> Dict[str, np.ndarray]:
        if self.game.is_over:
            mask = np.zeros(self.action_space.n, dtype=np.int8)
        else:
            mask = self.game.action_mask()
        return {"observation": self.game.observation(self.seat), "action_mask": mask}

    def _opponents(self) -> None:
        while not self.game.is_over and self.game.to_move != self.seat:
            if self.max_plies is not None and self._plies >= self.max_plies:
                return
            move = self.engine.best_move(self.game, **self.limits)
            self.game.play(move)
            self._plies += 1

    def _reward(self) -> float:
        return _rewards(self.game, len(self.game.players))[self.seat]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.game = Game(self.game_id, **self.settings)
        self.engine.new_game()
        self._plies = 0
        self._opponents()
        return self._observe(), {}

    def step(self, action: int):
        try:
            move = self.game.play_action(int(action))
        except MoveError:
            if self.illegal == "raise":
                raise
            return self._observe(), -1.0, True, False, {"illegal": int(action)}
        self._plies += 1
        self._opponents()
        terminated = self.game.is_over
        truncated = (
            not terminated and self.max_plies is not None and self._plies >= self.max_plies
        )
        reward = self._reward() if terminated else 0.0
        return self._observe(), reward, terminated, truncated, {"move": move}

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        return self.game.position


__all__ = ["MyrmidonEnv", "SingleAgentEnv", "env"]
