"""Gymnasium's own checks and wrappers on fleetdyn.VectorEnv (gymnasium is a test dependency)."""

import gymnasium as gym
import numpy as np
from gymnasium.utils import env_checker, passive_env_checker
from gymnasium.wrappers import vector as vector_wrappers

import fleetdyn


def test_is_a_gymnasium_vector_env(make_env):
    env = make_env(4)
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP
    assert isinstance(env.observation_space, gym.spaces.Box)
    assert env.observation_space == gym.vector.utils.batch_space(env.single_observation_space, 4)
    assert env.action_space == gym.vector.utils.batch_space(env.single_action_space, 4)
    env_checker.check_space_limit(env.action_space, "action")


def test_env_checker_functions(make_env):
    env = make_env(4, seed=1)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_options(env)
    env_checker.check_reset_seed_determinism(env)
    obs, info = env.reset(seed=3)
    passive_env_checker.check_obs(obs, env.observation_space, "reset")
    env.action_space.seed(3)
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    passive_env_checker.check_obs(obs, env.observation_space, "step")
    # Same seed and action: the same transition, bit for bit (gymnasium's data_equivalence).
    env.reset(seed=3)
    env.action_space.seed(3)
    again = env.step(env.action_space.sample())
    assert env_checker.data_equivalence((obs, reward, terminated, truncated, info), again, exact=True)
    # One env: gymnasium's check that returned data is never reused.
    env_checker.check_returned_data_not_reused(make_env(1, seed=2))


def test_gymnasium_vector_wrappers(make_env):
    n = 8
    base = make_env(n, seed=4, time_limit=0.3)
    # (gymnasium's observation wrappers refuse same-step autoreset envs: they cannot transform
    # final_obs; the action and statistics wrappers apply.)
    env = vector_wrappers.RecordEpisodeStatistics(vector_wrappers.ClipAction(base))
    obs, _ = env.reset(seed=4)
    env.action_space.seed(4)
    episodes = 0
    for _ in range(40):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample() * 1.5)  # clipped
        assert obs.shape == (n, base.single_observation_space.shape[0])
        if "episode" in info:
            mask = info["_episode"]
            np.testing.assert_array_equal(mask, info["_final_obs"])
            ours = info["final_info"]["episode"]
            np.testing.assert_array_equal(info["episode"]["l"][mask], ours["l"][mask])
            np.testing.assert_allclose(info["episode"]["r"][mask], ours["r"][mask], rtol=1e-5, atol=1e-5)
            episodes += int(mask.sum())
    assert episodes >= 2 * n  # 40 steps of 15-step episodes
    assert len(env.return_queue) == min(episodes, env.return_queue.maxlen)


def test_info_converts_to_per_env_dicts(make_env):
    # gymnasium's DictInfoToList reads the "_key" masks: every ended env gets its own final
    # observation, episode statistics and end reason, the others none.
    n = 4
    env = vector_wrappers.DictInfoToList(make_env(n, seed=5, time_limit=0.1))
    env.reset(seed=5)
    for k in range(5):
        obs, reward, terminated, truncated, infos = env.step(np.zeros((n, 3), np.float32))
        assert isinstance(infos, list) and len(infos) == n
        if k < 4:
            assert all(i == {} for i in infos)
    for i in range(n):
        assert infos[i]["end_reason"] == "time_limit"
        assert infos[i]["final_info"]["episode"]["l"] == 5
        assert infos[i]["final_obs"].shape == obs[i].shape and not np.array_equal(infos[i]["final_obs"], obs[i])
