"""Agents, roles, teams and spaces as the spec declares them; feature names; action tables.

Agent names are ``<role>`` (a role played by one agent) or ``<role>_0`` ... ``<role>_{k-1}``, in the
spec's role order; the roles of ``team_roles`` form one side each; per role, the observation and
action sizes do not depend on the seat count (one network plays every table size); the layout and
the action table each name every entry once.
"""

from __future__ import annotations

import numpy as np
import pytest

from conformance import games


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_agents_roles_and_teams_are_as_declared(spec, seats: int) -> None:
    e = games.make(spec, seats)
    u = e.unwrapped
    assert len(e.possible_agents) == seats
    assert u.env_name == spec.env_name == u.metadata["name"]
    roles = u.roles()
    assert tuple(roles) == tuple(r for r in spec.roles if r in roles), f"roles {list(roles)} out of the declared order {spec.roles}"
    assert set(roles) <= set(spec.roles), f"undeclared roles {set(roles) - set(spec.roles)}"
    if spec.kind == "solo":
        assert len(e.possible_agents) == 1 and tuple(roles) == spec.roles
    elif spec.kind == "symmetric":
        assert tuple(roles) == spec.roles and len(spec.roles) == 1
    else:
        assert len(roles) >= 2, f"a roles game with one role at {seats} seats: {roles}"
    for role, agents in roles.items():
        assert agents in ([role], [f"{role}_{i}" for i in range(len(agents))]), f"agent names {agents} for role {role!r}"
    assert [a for agents in roles.values() for a in agents] == e.possible_agents, "agents are grouped by role in possible_agents"
    assert tuple(u.team_roles) == spec.team_roles
    for a in e.possible_agents:
        role = u.agent_role(a)
        assert u.agent_team(a) == (role if role in spec.team_roles else a)


@pytest.mark.parametrize("spec", games.spec_params())
def test_sizes_per_role_do_not_depend_on_the_seat_count(spec) -> None:
    sizes: dict[str, set] = {}
    for seats in spec.seat_counts():
        e = games.make(spec, seats)
        e.reset(seed=seats)
        for a in e.possible_agents:
            space, obs = e.observation_space(a), e.observe(a)
            n = e.action_space(a).n
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            assert obs["observation"].shape == space["observation"].shape and obs["action_mask"].shape == space["action_mask"].shape == (n,)
            assert space["observation"].dtype == np.float32 and space["action_mask"].dtype == np.int8
            sizes.setdefault(e.unwrapped.agent_role(a), set()).add((space["observation"].shape, n))
    assert all(len(v) == 1 for v in sizes.values()), sizes


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_observation_features_one_unique_name_per_entry(spec, seats: int) -> None:
    e = games.make(spec, seats)
    e.reset(seed=0)
    u = e.unwrapped
    for a in [None, *e.possible_agents]:
        names = e.observation_features(a)
        agent = a or e.possible_agents[0]
        layout = u.observation_layout(agent)
        assert len(names) == layout.size == e.observation_space(agent)["observation"].shape[0] == e.observe(agent)["observation"].shape[0]
        assert names == layout.features()
        assert all(isinstance(x, str) and x for x in names)
        dup = {x for x in names if names.count(x) > 1}
        assert not dup, f"duplicate feature names: {sorted(dup)[:10]}"
        assert "(total)" in layout.markdown()


@pytest.mark.parametrize(("spec", "seats"), games.seat_params())
def test_action_tables_round_trip_and_label_every_id_once(spec, seats: int) -> None:
    e = games.make(spec, seats, "raw_env")
    u = e.unwrapped
    by_role: dict[str, list[str]] = {}
    for agent in e.possible_agents:
        table = u.action_table(agent)
        n = e.action_space(agent).n
        assert table.n == len(table) == n
        labels = [u.action_label(a, agent) for a in range(n)]
        assert len(set(labels)) == n, "two action ids share a label"
        for a in range(n):
            name, arg = table.decode(a)
            assert table.encode(name, arg) == a and table.decode(table.encode(name, arg)) == (name, arg)
            assert labels[a] == table.label(a) and labels[a].startswith(name), (a, labels[a], name)
        for bad in (-1, n):
            with pytest.raises(ValueError):
                table.decode(bad)
        last = table.ranges[-1]
        with pytest.raises(ValueError):
            table.encode(last.name, last.size)
        assert "| ids |" in table.markdown()
        role = u.agent_role(agent)
        assert by_role.setdefault(role, labels) == labels, f"agents of role {role!r} have different action tables"
