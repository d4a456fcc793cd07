"""examples/train_cem.py: the cross-entropy method measurably improves the mean return on the
path-following task (fixed seed; the same evaluation episodes before and after)."""

import importlib.util
import os

import numpy as np

from conftest import ROOT


def test_cem_improves_mean_return():
    spec = importlib.util.spec_from_file_location("train_cem", os.path.join(ROOT, "examples", "train_cem.py"))
    train_cem = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train_cem)
    r = train_cem.train(generations=8, population=24, episodes=4, horizon=200, eval_envs=128, seed=0,
                        verbose=False)
    gain = r["after_mean"] - r["before_mean"]
    # Paired comparison over the same 128 evaluation episodes: the gain must exceed five
    # standard errors of the per-episode differences (and the unpaired errors too).
    diff = r["after"] - r["before"]
    se_paired = diff.std(ddof=1) / np.sqrt(len(diff))
    se_unpaired = np.hypot(r["before_se"], r["after_se"])
    assert gain > 5.0 * max(se_paired, se_unpaired), (r["before_mean"], r["after_mean"], se_paired, se_unpaired)
    # The trained policy keeps (nearly) every vehicle on the road.
    assert r["after_end_reasons"].get("time_limit", 0) >= 0.9 * len(r["after"]), r["after_end_reasons"]
