"""fleetdyn.VectorEnv: the C++ vector environment with Gymnasium's vector API.

Semantics (include/fleetdyn/vector_env.h has the physics, tasks and rewards):

* ``reset(seed=None, options=None) -> (obs, info)``; ``options={"reset_mask": mask}`` resets only
  the envs where the boolean mask (length num_envs) is true, the others keep their episode (and
  their current observation in ``obs``).
* ``step(actions) -> (obs, reward, terminated, truncated, info)``; actions float32
  ``(num_envs, 3)``: steer [-1, 1], throttle [0, 1], brake [0, 1] (clipped; rate-limited
  actuators). Other float dtypes are converted; non-float dtypes, wrong shapes and NaN are
  rejected.
* Autoreset: Gymnasium's same-step mode (``metadata["autoreset_mode"]``). An env whose episode
  ends in ``step`` is reset in that same call: ``obs`` holds the new episode's first observation,
  ``info["final_obs"][i]`` the old episode's last one where ``info["_final_obs"][i]``.
  ``info["final_info"]`` holds the ended episodes' statistics (``"episode": {"r", "l"}``, undiscounted
  return and length in env steps) and ``"end_reason"`` (names from ``fleetdyn.END_REASON_NAMES``:
  rollover, off_road, diverged, time_limit, track_end), each with its ``_`` mask. Unlike
  Gymnasium's SyncVectorEnv, ``final_obs`` is one float array (num_envs, obs_size) (rows where the
  mask is false are zero) rather than an object array.
* CPU backend: numpy arrays, fresh copies every call (``copy=False``: views of the env's buffers,
  overwritten by the next step). CUDA backend: ``fleetdyn.BufferView`` objects over the env's
  device buffers, zero-copy through DLPack (``torch.from_dlpack(obs)``), valid until the next
  step; the DLPack ``stream`` argument is honoured (the consumer's stream waits for the env's). A
  step never copies to the host there: ``info`` holds device views too (``end_reason`` as int32
  codes, the masks as bool) and always carries the ``final_*`` keys. Actions may be numpy arrays
  or CUDA tensors (float32, contiguous, on the env's device), read in place.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from . import _fleetdyn
from ._spaces import make_box

try:
    import gymnasium as _gym
    from gymnasium.utils import seeding as _seeding

    _Base = _gym.vector.VectorEnv
    try:
        _SAME_STEP: Any = _gym.vector.AutoresetMode.SAME_STEP
    except AttributeError:  # gymnasium < 1.0
        _SAME_STEP = "SameStep"
except ImportError:  # gymnasium is optional
    _gym = None
    _seeding = None
    _Base = object
    _SAME_STEP = "SameStep"

_END_REASON_NAMES = np.array(_fleetdyn.END_REASON_NAMES, dtype=object)


def _numpy_version() -> tuple[int, int]:
    major, minor = np.__version__.split(".")[:2]
    return int(major), int("".join(ch for ch in minor if ch.isdigit()) or 0)


class VectorEnv(_Base):  # type: ignore[misc, valid-type]
    """num_envs vehicles, each an independent episode of a driving task, stepped together.

    Args:
        num_envs: number of environments.
        model: "strut" or "ce".
        task: "path_following" or "reach_speed".
        backend: "auto" (CUDA when available), "cpu" or "cuda".
        seed: seed of every env's random streams (tracks, parameters, initial states).
        copy: CPU backend: return fresh numpy arrays (True) or views of the env's buffers that the
            next step overwrites (False). Ignored on CUDA (always zero-copy device views).
        **config: any field of fleetdyn::VectorEnvConfig by name (fleetdyn.vector_env_config_defaults()
            lists them with their defaults), e.g. decimation=10, time_limit=20.0,
            observations=["body_velocity", "path_errors"], vehicle={"tire.mu": 0.8},
            randomize=[("total_mass", 0.9, 1.2)], use_default_randomization=False. With
            model="ce": vehicle is a fleetdyn.CeParams or a dict of ce names
            (fleetdyn.ce_param_fields()); fleetdyn.env_randomizable_params("ce") lists what
            randomize accepts; the default step is 2 ms (decimation 10: 50 Hz control).
    """

    metadata: dict[str, Any] = {"autoreset_mode": _SAME_STEP, "render_modes": []}
    spec = None
    render_mode = None
    closed = False

    def __init__(self, num_envs: int = 1024, model: str = "strut", task: str = "path_following",
                 backend: str = "auto", seed: int = 0, *, copy: bool = True, **config: Any):
        if not copy and _numpy_version() < (1, 25):
            # The flag buffers are bool; numpy.from_dlpack reads bool tensors from numpy 1.25 on.
            raise ValueError(f"copy=False needs numpy >= 1.25 (views of the bool flag buffers through "
                             f"DLPack); this is numpy {np.__version__}: use copy=True or a newer numpy")
        cfg = {"num_envs": num_envs, "model": model, "task": task, "backend": backend, "seed": seed}
        cfg.update(config)
        self._core = _fleetdyn.VectorEnvCore(cfg)
        core = self._core
        self.num_envs = core.num_envs
        self._on_device = bool(core.on_device)
        self._copy = bool(copy)
        obs_size = core.observation_size
        self.observation_names = tuple(core.observation_names)
        low = np.asarray(core.action_low, dtype=np.float32)
        high = np.asarray(core.action_high, dtype=np.float32)
        self.single_observation_space = make_box(-np.inf, np.inf, (obs_size,))
        self.observation_space = make_box(-np.inf, np.inf, (self.num_envs, obs_size))
        self.single_action_space = make_box(low, high, (3,))
        self.action_space = make_box(np.tile(low, (self.num_envs, 1)), np.tile(high, (self.num_envs, 1)),
                                     (self.num_envs, 3))
        self.closed = False

    # ---- Gymnasium vector API ---------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset every env (or those in options["reset_mask"]); with a seed, the envs' random
        streams restart from it. Returns (obs, info)."""
        core = self._live_core()
        mask = None
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"reset: options must be None or a dict, got {options!r} ({type(options).__name__})")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
                raise TypeError(f"reset: seed must be None or an integer in [0, 2**64 - 1], got {seed!r} "
                                f"({type(seed).__name__})")
            seed = int(seed)
            if not 0 <= seed < 2**64:
                raise ValueError(f"reset: seed {seed} is outside [0, 2**64 - 1]")
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"reset: unknown option(s) {sorted(unknown, key=repr)} (known: ['reset_mask'])")
            mask = options.get("reset_mask")
        if mask is not None:
            try:
                mask = np.asarray(mask)
            except ValueError as e:  # ragged nesting
                raise ValueError(f"reset_mask: expected a 1-d array of num_envs ({self.num_envs}) booleans, "
                                 f"got {mask!r}: {e}") from None
        core.reset(seed, mask)  # a refused mask changes nothing
        if seed is not None:
            if _seeding is not None:
                self._np_random, self._np_random_seed = _seeding.np_random(seed)
            else:
                self._np_random, self._np_random_seed = np.random.default_rng(seed), seed
        return self._out(core.observations()), {}

    def step(self, actions):
        """One env step for every env: (obs, reward, terminated, truncated, info)."""
        core = self._live_core()
        core.step(actions)
        obs = self._out(core.observations())
        reward = self._out(core.rewards())
        terminated = self._out(core.terminated())
        truncated = self._out(core.truncated())
        return obs, reward, terminated, truncated, self._step_info(core)

    def close(self, **kwargs: Any) -> None:
        """Release the env (its buffers go when the last view of them does)."""
        if getattr(self, "closed", True):
            return
        core = getattr(self, "_core", None)
        if core is not None:
            core.close()
        self._core = None
        self.closed = True

    # ---- fleetdyn extras ------------------------------------------------------------------------

    @property
    def backend(self) -> str:
        """"cpu" or "cuda"."""
        return self._live_core().backend

    @property
    def device_name(self) -> str:
        return self._live_core().device_name

    @property
    def max_episode_steps(self) -> int:
        """Env steps until truncation (time_limit / (decimation * physics_step))."""
        return self._live_core().max_episode_steps

    @property
    def config(self) -> dict[str, Any]:
        """The resolved configuration (defaults filled in)."""
        return self._live_core().config

    @property
    def stream(self) -> int:
        """The CUDA env's cudaStream_t as an integer (0 on the CPU)."""
        return self._live_core().stream

    def synchronize(self) -> None:
        """Wait for the env's queued work (no-op on the CPU)."""
        self._live_core().synchronize()

    def set_base_param(self, name: str, values) -> None:
        """Set one vehicle parameter of every env's base set (a number, or one per env); takes
        effect at each env's next reset (randomization draws around it)."""
        self._live_core().set_base_param(name, values)

    def set_base_params(self, params) -> None:
        """Base parameters: one parameter object of the env's model (fleetdyn.StrutParams for
        strut, fleetdyn.CeParams for ce) or a list of num_envs of them."""
        self._live_core().set_base_params(params)

    def episode_param(self, name: str) -> np.ndarray:
        """The named parameter each env runs in its current episode (float64, num_envs)."""
        return self._live_core().episode_param(name)

    def read_state(self) -> np.ndarray:
        """Raw vehicle state [state size][num_envs] (positions local to each env's origin)."""
        return self._live_core().read_state()

    def read_origins(self) -> np.ndarray:
        """Each env's local origin [2][num_envs]."""
        return self._live_core().read_origins()

    def read_static_loads(self) -> np.ndarray:
        """Tire normal forces at rest [N] of each env's current vehicle [4][num_envs] (FL FR RL RR),
        what the wheel_loads observation divides by (ce: from the rest state solved at reset)."""
        return self._live_core().read_static_loads()

    def buffers(self) -> dict[str, Any]:
        """Zero-copy fleetdyn.BufferView objects of every buffer (host or device memory),
        overwritten by the next step: observations, rewards, terminated, truncated,
        final_observations, has_final, final_returns, final_lengths, end_reasons."""
        core = self._live_core()
        names = ("observations", "rewards", "terminated", "truncated", "final_observations", "has_final",
                 "final_returns", "final_lengths", "end_reasons")
        return {n: getattr(core, n)() for n in names}

    def __repr__(self) -> str:
        if getattr(self, "_core", None) is None:
            return f"fleetdyn.VectorEnv(num_envs={getattr(self, 'num_envs', '?')}, closed)"
        c = self.config
        return (f"fleetdyn.VectorEnv(num_envs={self.num_envs}, model={c['model']!r}, task={c['task']!r}, "
                f"backend={self.backend!r})")

    # ---- internals ------------------------------------------------------------------------------

    def _live_core(self):
        core = getattr(self, "_core", None)
        if core is None:
            raise _fleetdyn.Error("VectorEnv: the env is closed")
        return core

    def _out(self, view):
        if self._on_device:
            return view
        if self._copy:
            return view.numpy()
        return np.from_dlpack(view)

    def _step_info(self, core) -> dict[str, Any]:
        if self._on_device:
            has_final = core.has_final()
            return {
                "final_obs": core.final_observations(),
                "_final_obs": has_final,
                "final_info": {
                    "episode": {"r": core.final_returns(), "l": core.final_lengths()},
                    "_episode": has_final,
                    "end_reason": core.end_reasons(),
                    "_end_reason": has_final,
                },
                "_final_info": has_final,
                "end_reason": core.end_reasons(),
                "_end_reason": has_final,
            }
        has_final = core.has_final().numpy()
        if not has_final.any():
            return {}
        not_final = ~has_final
        final_obs = core.final_observations().numpy()
        final_obs[not_final] = 0.0
        returns = core.final_returns().numpy()
        returns[not_final] = 0.0
        lengths = core.final_lengths().numpy()
        lengths[not_final] = 0
        codes = core.end_reasons().numpy()
        codes[not_final] = 0
        names = _END_REASON_NAMES[codes]
        return {
            "final_obs": final_obs,
            "_final_obs": has_final,
            "final_info": {
                "episode": {"r": returns, "l": lengths},
                "_episode": has_final.copy(),
                "end_reason": names,
                "_end_reason": has_final.copy(),
            },
            "_final_info": has_final.copy(),
            "end_reason": names.copy(),
            "_end_reason": has_final.copy(),
        }
