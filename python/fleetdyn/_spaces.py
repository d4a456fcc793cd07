"""Observation and action spaces: gymnasium.spaces.Box when gymnasium is importable, else a small
description with the same attributes (shape, dtype, low, high, contains, sample, seed)."""

from __future__ import annotations

import numpy as np

try:  # gymnasium is optional
    import gymnasium as _gym
except ImportError:  # pragma: no cover - exercised where gymnasium is absent
    _gym = None


class BoxDescription:
    """A box of float values, as gymnasium.spaces.Box describes one (used without gymnasium)."""

    def __init__(self, low, high, shape, dtype=np.float32):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()
        self._rng = np.random.default_rng()

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)
        return [seed]

    def sample(self):
        """Uniform in the box (unbounded sides: standard normal)."""
        low = np.where(np.isfinite(self.low), self.low, 0.0)
        high = np.where(np.isfinite(self.high), self.high, 0.0)
        x = self._rng.uniform(low, high, size=self.shape)
        unbounded = ~(np.isfinite(self.low) & np.isfinite(self.high))
        x = np.where(unbounded, self._rng.standard_normal(self.shape), x)
        return x.astype(self.dtype)

    def contains(self, x) -> bool:
        x = np.asarray(x)
        return bool(x.shape == self.shape and np.all(x >= self.low) and np.all(x <= self.high))

    __contains__ = contains

    def __repr__(self):
        return f"BoxDescription(shape={self.shape}, dtype={self.dtype})"


def make_box(low, high, shape, dtype=np.float32):
    """gymnasium.spaces.Box if gymnasium is installed, else a BoxDescription."""
    if _gym is not None:
        low_a = np.broadcast_to(np.asarray(low, dtype=dtype), shape)
        high_a = np.broadcast_to(np.asarray(high, dtype=dtype), shape)
        return _gym.spaces.Box(low=low_a, high=high_a, shape=tuple(shape), dtype=dtype)
    return BoxDescription(low, high, shape, dtype)
