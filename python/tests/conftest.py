"""pytest setup: the fleetdyn package comes from the build tree (ctest sets PYTHONPATH to
<build>/python; run by hand: PYTHONPATH=build/python python3 -m pytest python/tests)."""

import os
import sys

import numpy as np
import pytest

_build = os.environ.get("FLEETDYN_PYTHON_BUILD_DIR")
if _build and _build not in sys.path:
    sys.path.insert(0, _build)

import fleetdyn  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def make_env():
    """VectorEnv factory on the CPU backend; closes what it made."""
    made = []

    def make(num_envs=16, **kw):
        kw.setdefault("backend", "cpu")
        env = fleetdyn.VectorEnv(num_envs=num_envs, **kw)
        made.append(env)
        return env

    yield make
    for env in made:
        env.close()


def drive_actions(n, steer=0.0, throttle=0.3, brake=0.0):
    a = np.zeros((n, 3), dtype=np.float32)
    a[:, 0], a[:, 1], a[:, 2] = steer, throttle, brake
    return a
